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

extension Corpus {
    /// The `.case` files under each path (a file, or a folder searched with its subfolders; hidden files and
    /// folders are skipped), each folder's sorted by name. Symbolic links are followed, and each real file is
    /// listed once however many paths lead to it (a link, a hard link, a folder given twice or inside another
    /// given one); a folder reached again through a link (`self -> .`, `up -> ..`) is not walked again, so a
    /// loop neither hangs nor repeats a case. A path that does not exist, cannot be read, or is a folder holding
    /// no case is an error: a mistyped path must never pass as "nothing failed".
    ///
    /// Every command that reads a corpus (`replay`, `export-tests`, `export-seeds`, `GraphFuzzTest.check`)
    /// walks it here.
    package static func files(in paths: [String]) throws(CorpusError) -> [String] {
        var walk = CorpusWalk()
        for path in paths { try walk.add(path) }
        return walk.files
    }
}

/// One walk over corpus paths: the files it listed, each real file (device and inode) once. Each path is walked
/// with its own set of the folders it entered, so a loop ends and a path's cases are counted whatever an earlier
/// path listed.
struct CorpusWalk {
    /// A file or folder as the file system knows it: the same whichever path reaches it.
    private struct Node: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    /// The case files listed, in the order walked.
    private(set) var files: [String] = []
    private var listed: Set<Node> = []

    /// Lists the cases of `path`, a case file or a folder.
    mutating func add(_ path: String) throws(CorpusError) {
        guard !path.isEmpty else { throw CorpusError(file: "''", line: nil, message: "no such file or folder") }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            let missing = code == ENOENT || code == ENOTDIR
            throw CorpusError(file: path, line: nil, message: missing ? "no such file or folder" : "cannot read it: \(FileIO.reason(code))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            var entered: Set<Node> = []
            guard try walk(path, info, entered: &entered) > 0 else {
                throw CorpusError(file: path, line: nil, message: "no .case file in this folder or its subfolders")
            }
        case S_IFREG:
            list(path, info)
        default:
            throw CorpusError(file: path, line: nil, message: "not a corpus case: \(FileIO.kind(of: info.st_mode)), not a regular file")
        }
    }

    /// Walks `folder` unless this path's walk `entered` it before; returns the cases met under it (listed now or
    /// before).
    private mutating func walk(_ folder: String, _ info: stat, entered: inout Set<Node>) throws(CorpusError) -> Int {
        guard entered.insert(Node(info)).inserted else { return 0 }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw CorpusError(file: folder, line: nil, message: "cannot read the folder: \(FileIO.reason(of: error))")
        }
        var met = 0
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = FileIO.path(folder, appending: name)
            var entry = stat()
            guard stat(path, &entry) == 0 else {
                let code = errno
                // A link to nothing, or links leading round to themselves: nothing to read there.
                if code == ENOENT || code == ELOOP { continue }
                throw CorpusError(file: path, line: nil, message: "cannot read it: \(FileIO.reason(code))")
            }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR:
                met += try walk(path, entry, entered: &entered)
            case S_IFREG where name.hasSuffix(".case"):
                met += 1
                list(path, entry)
            default:
                guard name.hasSuffix(".case") else { continue }
                throw CorpusError(file: path, line: nil, message: "not a corpus case: \(FileIO.kind(of: entry.st_mode)), not a regular file")
            }
        }
        return met
    }

    /// Lists the file at `path` unless it was listed before (through another path).
    private mutating func list(_ path: String, _ info: stat) {
        guard listed.insert(Node(info)).inserted else { return }
        files.append(path)
    }
}
