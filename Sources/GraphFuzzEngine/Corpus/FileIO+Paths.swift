/// Path arithmetic on strings, character for character as swift-corelibs-foundation's `NSString` does it
/// (`appendingPathComponent`, `lastPathComponent`, `deletingPathExtension`), which FoundationEssentials does not have.
extension FileIO {
    /// `folder` and `name` joined by one "/" (none added when `folder` ends with one; `folder` alone when `name` is
    /// empty, `name` alone when `folder` is): `NSString.appendingPathComponent`.
    package static func path(_ folder: String, appending name: String) -> String {
        if name.isEmpty { return folder }
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The part of `path` after its last "/" (runs of "/" taken as one, a trailing one dropped): `NSString.lastPathComponent`.
    package static func lastComponent(of path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.count > 1 else { return fixed }
        return String(fixed[startOfLastComponent(fixed)...])
    }

    /// `path` without its last component's extension (the "." and what follows it; a name that starts with its only
    /// "." and ".." have none), runs of "/" taken as one, a trailing one dropped: `NSString.deletingPathExtension`.
    package static func deletingExtension(of path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.count > 1, let start = startOfExtension(fixed) else { return fixed }
        return String(fixed[..<fixed.index(before: start)])
    }

    /// `path` with each run of "/" made one and a trailing "/" dropped ("/" itself kept; "//" becomes "").
    private static func fixingSlashes(_ path: String) -> String {
        if path == "/" { return path }
        var result = ""
        var afterSlash = false
        for character in path {
            if character == "/" {
                if afterSlash { continue }
                afterSlash = true
            } else {
                afterSlash = false
            }
            result.append(character)
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// Where the last component of `path` (no trailing "/") starts.
    private static func startOfLastComponent(_ path: String) -> String.Index {
        var position = path.endIndex
        while position > path.startIndex {
            let previous = path.index(before: position)
            if path[previous] == "/" { break }
            position = previous
        }
        return position
    }

    /// Where the extension of the last component of `path` (no trailing "/") starts, after its "."; nil when it has none.
    private static func startOfExtension(_ path: String) -> String.Index? {
        let componentStart = startOfLastComponent(path)
        var position = path.endIndex
        while position > componentStart {
            let previous = path.index(before: position)
            if path[previous] == "." {
                if previous == componentStart { return nil }
                // ".." as the whole component.
                let beforeDot = path.index(before: previous)
                if previous == path.index(before: path.endIndex), beforeDot == componentStart, path[beforeDot] == "." { return nil }
                return position
            }
            position = previous
        }
        return nil
    }
}
