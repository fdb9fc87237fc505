#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// An in-memory file system that models durability: written contents become durable only when
/// synchronised; renames and removals are journaled (durable at once). `powerLoss()` drops every
/// change not yet durable, as a restart after a crash would.
public final class SimulatedFileSystem: CacheFileSystem, Sendable {
    private struct File {
        var contents: Data
        var modified: Date
        /// What survives a power loss; nil: the file disappears.
        var durable: (contents: Data, modified: Date)?
    }

    /// Files by folder, then by name.
    private let folders = Mutex<[String: [String: File]]>(["/": [:]])

    public init() {}

    private func locked<T: Sendable>(_ body: (inout [String: [String: File]]) throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        try folders.withLock { (folders) throws(FileSystemError) in try body(&folders) }
    }

    /// Splits a path at its last slash: (folder, name).
    private static func split(_ path: String) -> (folder: String, name: String) {
        // Over the contiguous bytes: a scan of `String.UTF8View` from its end costs about ten times as much.
        var path = path
        return path.withUTF8 { bytes in
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("/", String(decoding: bytes, as: UTF8.self)) }
            let folder = slash == 0 ? "/" : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)
            return (folder, String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self))
        }
    }

    public func createFolder(at path: String) throws(FileSystemError) {
        folders.withLock { folders in
            var current = path
            while current != "/" && !current.isEmpty {
                if folders[current] == nil { folders[current] = [:] }
                current = SimulatedFileSystem.split(current).folder
            }
        }
    }

    public func folderExists(at path: String) -> Bool { folders.withLock { folders in folders[path] != nil } }

    public func write(_ data: Data, to path: String, modified: Date) throws(FileSystemError) {
        let (folder, name) = SimulatedFileSystem.split(path)
        try locked { (folders) throws(FileSystemError) in
            guard folders[folder] != nil else { throw FileSystemError(.folderMissing, path: path, operation: "write") }
            let durable = folders[folder]![name]?.durable
            folders[folder]![name] = File(contents: data, modified: modified, durable: durable)
        }
    }

    public func synchronize(_ path: String) throws(FileSystemError) {
        let (folder, name) = SimulatedFileSystem.split(path)
        try locked { (folders) throws(FileSystemError) in
            guard let file = folders[folder]?[name] else { throw FileSystemError(.notFound, path: path, operation: "synchronize") }
            folders[folder]![name]!.durable = (file.contents, file.modified)
        }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        let from = SimulatedFileSystem.split(source), to = SimulatedFileSystem.split(destination)
        try locked { (folders) throws(FileSystemError) in
            guard let file = folders[from.folder]?[from.name] else {
                throw FileSystemError(.notFound, path: source, operation: "rename")
            }
            guard folders[to.folder] != nil else { throw FileSystemError(.folderMissing, path: destination, operation: "rename") }
            folders[from.folder]![from.name] = nil
            folders[to.folder]![to.name] = file
        }
    }

    public func read(_ path: String) throws(FileSystemError) -> Data {
        let (folder, name) = SimulatedFileSystem.split(path)
        return try locked { (folders) throws(FileSystemError) in
            guard let file = folders[folder]?[name] else { throw FileSystemError(.notFound, path: path, operation: "read") }
            return file.contents
        }
    }

    public func fileExists(at path: String) -> Bool {
        let (folder, name) = SimulatedFileSystem.split(path)
        return folders.withLock { folders in folders[folder]?[name] != nil }
    }

    public func remove(_ path: String) throws(FileSystemError) {
        let (folder, name) = SimulatedFileSystem.split(path)
        try locked { (folders) throws(FileSystemError) in
            guard folders[folder]?[name] != nil else { throw FileSystemError(.notFound, path: path, operation: "remove") }
            folders[folder]![name] = nil
        }
    }

    public func list(_ folder: String) throws(FileSystemError) -> [(name: String, modified: Date)] {
        try locked { (folders) throws(FileSystemError) in
            guard let files = folders[folder] else { throw FileSystemError(.folderMissing, path: folder, operation: "list") }
            return files.map { (name: $0.key, modified: $0.value.modified) }.sorted { $0.name < $1.name }
        }
    }

    public func removeFolder(at path: String) throws(FileSystemError) {
        try locked { (folders) throws(FileSystemError) in
            guard folders[path] != nil else { throw FileSystemError(.notFound, path: path, operation: "removeFolder") }
            let prefix = path + "/"
            folders = folders.filter { $0.key != path && !$0.key.hasPrefix(prefix) }
        }
    }

    /// Drops everything not yet durable: unsynchronised files vanish or revert to their last durable contents.
    public func powerLoss() {
        folders.withLock { folders in
            for (folder, files) in folders {
                var kept: [String: File] = [:]
                for (name, file) in files {
                    if let durable = file.durable {
                        kept[name] = File(contents: durable.contents, modified: durable.modified, durable: durable)
                    }
                }
                folders[folder] = kept
            }
        }
    }

    /// How many files exist, in all folders.
    public var fileCount: Int { folders.withLock { folders in folders.values.reduce(0) { $0 + $1.count } } }
}
