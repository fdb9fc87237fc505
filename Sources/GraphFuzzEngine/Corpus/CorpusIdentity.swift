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

/// A corpus folder's identity: a random identifier kept in a small hidden file at the folder's root
/// (`.graph-fuzz-corpus`). It is written when the folder gets its first case (`Corpus.write`) or, for
/// a folder made by hand, at its first export; it travels with the folder (copied, moved, committed)
/// and stays the same as cases come and go. `export-tests` records it in every test it writes, so it
/// recognises its own exports of this corpus by identity, never by the folder's name.
package enum CorpusIdentity {
    /// The file at a corpus folder's root that holds its identity (hidden: replay skips it).
    package static let fileName = ".graph-fuzz-corpus"
    /// The file's one line is this prefix and the identifier.
    static let prefix = "graph-fuzz corpus "

    /// The identity recorded in `folder`, nil when it has none. An error names the identity file when
    /// it cannot be read or does not hold an identity.
    @discardableResult
    package static func read(_ folder: String) throws(FileError) -> String? {
        let path = FileIO.path(folder, appending: fileName)
        guard access(path, F_OK) == 0 else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw FileError(file: path, action: "read the corpus identity", reason: FileIO.reason(of: error))
        }
        let line = Whitespace.spacesAndNewlines.trim(String(decoding: data, as: UTF8.self))
        let identity = line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : ""
        guard isIdentifier(identity) else {
            throw FileError(file: path, action: "read the corpus identity",
                            reason: "it does not hold one (expected one line '\(prefix)IDENTIFIER'; remove the file to give the corpus a new identity)")
        }
        return identity
    }

    /// A new identifier (random: two corpora made apart never share one).
    package static func make() -> String { UUID().uuidString.lowercased() }

    /// Records `identity` in `folder`, unless the folder has an identity already; returns the folder's
    /// identity (the one found, when another process wrote it first). Never replaces an identity.
    @discardableResult
    package static func write(_ identity: String, to folder: String) throws(FileError) -> String {
        if let existing = try read(folder) { return existing }
        let path = FileIO.path(folder, appending: fileName)
        let staged = path + ".\(getpid()).new"
        try FileIO.writeAtomically(prefix + identity + "\n", to: staged)
        // link(2) never replaces: a folder given an identity meanwhile keeps it.
        let linked = link(staged, path) == 0
        let code = errno
        unlink(staged)
        if !linked {
            if code == EEXIST, let existing = try read(folder) { return existing }
            throw FileError(file: path, action: "write the corpus identity", reason: FileIO.reason(code))
        }
        return identity
    }

    /// The folder's identity, written first (a new one) when it has none.
    @discardableResult
    package static func ensure(_ folder: String) throws(FileError) -> String {
        if let existing = try read(folder) { return existing }
        return try write(make(), to: folder)
    }

    /// Whether `text` can be an identity: letters, digits and dashes, 8 to 64 of them.
    package static func isIdentifier(_ text: String) -> Bool {
        (8...64).contains(text.count) && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
