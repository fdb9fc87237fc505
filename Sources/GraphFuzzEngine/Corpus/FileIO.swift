#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed: the file, what was being done, and the system's reason
/// (`No space left on device`, `Permission denied`, …).
package struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    package var file: String
    package var action: String
    package var reason: String

    package init(file: String, action: String, reason: String) {
        self.file = file
        self.action = action
        self.reason = reason
    }

    package var description: String { "\(file): cannot \(action): \(reason)" }
}

/// File operations whose errors name the file and the system's reason. Writes are atomic: a
/// hidden temporary file beside the target, flushed, then renamed into place.
package enum FileIO {
    /// The system's reason for `errno` value `code`.
    package static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The system's reason inside a Foundation error, when it carries one (a file operation's `CocoaError` holds the
    /// `POSIXError` of the call that failed); else Foundation's words for an error of its code, and any other error as
    /// it prints.
    package static func reason(of error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.underlying as? POSIXError { return reason(underlying.code.rawValue) }
            return "The operation could not be completed. (NSCocoaErrorDomain error \(cocoa.code.rawValue).)"
        }
        if let posix = error as? POSIXError { return reason(posix.code.rawValue) }
        return "\(error)"
    }

    /// Creates `path` and its missing parents (`mkdir -p`; a folder another process made meanwhile is taken as
    /// made); returns the folders it created, outermost first. An error names the path in the way and the system's
    /// reason: a file where a folder must be is "Not a directory"; a folder it cannot create (read-only, full, not a
    /// real file system such as /proc) has `mkdir`'s reason. Folders it created before an error are removed again
    /// while they are empty.
    @discardableResult
    package static func createFolder(_ path: String) throws(FileError) -> [String] {
        var created: [String] = []
        for folder in try missingFolders(path).reversed() {
            if mkdir(folder, 0o777) == 0 {
                created.append(folder)
                continue
            }
            let code = errno
            if code == EEXIST { continue }  // made meanwhile by another process
            removeFolders(created)
            throw FileError(file: folder, action: "create the folder", reason: reason(code))
        }
        return created
    }

    /// The folders of `path` that do not exist yet, innermost first (empty when `path` is a folder). An error names
    /// a file where a folder must be ("Not a directory") or a path that cannot be examined.
    private static func missingFolders(_ path: String) throws(FileError) -> [String] {
        guard !path.isEmpty else { throw FileError(file: "''", action: "use an empty path as a folder", reason: reason(ENOENT)) }
        var missing: [String] = []
        var current = path
        while true {
            var info = stat()
            if stat(current, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw FileError(file: current, action: "use it as a folder", reason: reason(ENOTDIR)) }
                return missing
            }
            let code = errno
            // Missing, or under a file (which the walk up then finds and names).
            guard code == ENOENT || code == ENOTDIR else { throw FileError(file: current, action: "use it as a folder", reason: reason(code)) }
            missing.append(current)
            guard let parent = parent(of: current) else { return missing }
            current = parent
        }
    }

    /// The folder holding `path` ("a/b" for "a/b/c", "/" for "/c"), nil for a path of one relative component
    /// or the root. (Foundation's `deletingLastPathComponent` traps on a relative name of one character.)
    package static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return nil }
        var parent = trimmed[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Whether `path` is a folder or a link to one (`FileManager.fileExists(atPath:isDirectory:)`).
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Removes `folders` (empty ones, as `createFolder` made them), innermost first.
    package static func removeFolders(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(folder) }
    }

    /// Writes `text` to `path` atomically. `temporary` names the hidden file used on the way
    /// (default: `.NAME.PID.tmp` beside it); it never survives a failed write.
    package static func writeAtomically(_ text: String, to path: String, temporary: String? = nil) throws(FileError) {
        let name = lastComponent(of: path)
        let temporary = temporary ?? FileIO.path(parent(of: path) ?? ".", appending: ".\(name).\(getpid()).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw FileError(file: temporary, action: "create the temporary file", reason: reason(errno)) }
        var bytes = Array(text.utf8)
        var offset = 0
        var failure: Int32?
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { failure = written < 0 ? errno : ENOSPC; break }
            offset += written
        }
        bytes.removeAll()
        if failure == nil && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == nil { failure = errno }
        if let failure {
            unlink(temporary)
            throw FileError(file: temporary, action: "write the temporary file", reason: reason(failure))
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileError(file: path, action: "rename \(temporary) into place", reason: reason(code))
        }
    }

    /// What a file of `mode` (`stat`'s `st_mode`) is, in words: "a folder", "a pipe", ….
    package static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// Removes the file at `path`.
    package static func remove(_ path: String) throws(FileError) {
        guard unlink(path) == 0 else { throw FileError(file: path, action: "remove it", reason: reason(errno)) }
    }

    /// Checks, before any work, that cases can be saved in `folder`, and leaves nothing: a small probe file is
    /// written and removed where the cases will go — in `folder` when it exists, else in a folder of this check's
    /// own made (and removed) where the first missing folder would go, so the check never creates nor removes a
    /// folder another run may be using (the folders are made, `mkdir -p`, when a case is saved). A file in the way,
    /// a read-only folder, a full disk or a path that is no real file system (/proc) shows here, with the path
    /// (the folder, or the first one missing) and the system's reason.
    package static func checkWritableFolder(_ folder: String) throws(FileError) {
        let missing = try missingFolders(folder)
        var place = folder
        if let first = missing.last {
            let stand = path(parent(of: first) ?? ".", appending:
                ".graph-fuzz-probe-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
            guard mkdir(stand, 0o700) == 0 else { throw FileError(file: first, action: "create the folder", reason: reason(errno)) }
            place = stand
        }
        defer { if place != folder { rmdir(place) } }
        let probe = path(place, appending: ".graph-fuzz-probe.\(getpid())")
        do {
            try writeAtomically(String(repeating: "graph-fuzz checks that this folder can be written\n", count: 80), to: probe,
                                temporary: probe + ".tmp")
            try remove(probe)
        } catch {
            throw FileError(file: missing.last ?? folder, action: "write a file in it", reason: error.reason)
        }
    }
}
