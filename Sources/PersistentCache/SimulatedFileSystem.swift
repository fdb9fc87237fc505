import Foundation

/// An in-memory file system that models durability: written contents become durable only when
/// synchronised; renames and removals are journaled (durable at once). `powerLoss()` drops every
/// change not yet durable, as a restart after a crash would.
public final class SimulatedFileSystem: CacheFileSystem, @unchecked Sendable {
    private struct File {
        var contents: Data
        var modified: Date
        /// What survives a power loss; nil: the file disappears.
        var durable: (contents: Data, modified: Date)?
    }

    private let lock = NSLock()
    private var folders: Set<String> = ["/"]
    private var files: [String: File] = [:]

    public init() {}

    private func locked<T>(_ body: () throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "/" }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    public func createFolder(at path: String) throws(FileSystemError) {
        lock.withLock {
            var current = path
            while current != "/" && !current.isEmpty {
                folders.insert(current)
                current = SimulatedFileSystem.parent(of: current)
            }
        }
    }

    public func folderExists(at path: String) -> Bool { lock.withLock { folders.contains(path) } }

    public func write(_ data: Data, to path: String, modified: Date) throws(FileSystemError) {
        try locked { () throws(FileSystemError) in
            guard folders.contains(SimulatedFileSystem.parent(of: path)) else {
                throw FileSystemError(.folderMissing, path: path, operation: "write")
            }
            files[path] = File(contents: data, modified: modified, durable: files[path]?.durable)
        }
    }

    public func synchronize(_ path: String) throws(FileSystemError) {
        try locked { () throws(FileSystemError) in
            guard var file = files[path] else { throw FileSystemError(.notFound, path: path, operation: "synchronize") }
            file.durable = (file.contents, file.modified)
            files[path] = file
        }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try locked { () throws(FileSystemError) in
            guard let file = files.removeValue(forKey: source) else {
                throw FileSystemError(.notFound, path: source, operation: "rename")
            }
            guard folders.contains(SimulatedFileSystem.parent(of: destination)) else {
                files[source] = file
                throw FileSystemError(.folderMissing, path: destination, operation: "rename")
            }
            files[destination] = file
        }
    }

    public func read(_ path: String) throws(FileSystemError) -> Data {
        try locked { () throws(FileSystemError) in
            guard let file = files[path] else { throw FileSystemError(.notFound, path: path, operation: "read") }
            return file.contents
        }
    }

    public func fileExists(at path: String) -> Bool { lock.withLock { files[path] != nil } }

    public func remove(_ path: String) throws(FileSystemError) {
        try locked { () throws(FileSystemError) in
            guard files.removeValue(forKey: path) != nil else { throw FileSystemError(.notFound, path: path, operation: "remove") }
        }
    }

    public func list(_ folder: String) throws(FileSystemError) -> [(name: String, modified: Date)] {
        try locked { () throws(FileSystemError) in
            guard folders.contains(folder) else { throw FileSystemError(.folderMissing, path: folder, operation: "list") }
            let prefix = folder + "/"
            var result: [(name: String, modified: Date)] = []
            for (path, file) in files where path.hasPrefix(prefix) {
                let name = path.dropFirst(prefix.count)
                if !name.contains("/") { result.append((String(name), file.modified)) }
            }
            return result.sorted { $0.name < $1.name }
        }
    }

    public func removeFolder(at path: String) throws(FileSystemError) {
        try locked { () throws(FileSystemError) in
            guard folders.contains(path) else { throw FileSystemError(.notFound, path: path, operation: "removeFolder") }
            let prefix = path + "/"
            folders = folders.filter { $0 != path && !$0.hasPrefix(prefix) }
            files = files.filter { !$0.key.hasPrefix(prefix) }
        }
    }

    /// Drops everything not yet durable: unsynchronised files vanish or revert to their last durable contents.
    public func powerLoss() {
        lock.withLock {
            var kept: [String: File] = [:]
            for (path, file) in files {
                if let durable = file.durable {
                    kept[path] = File(contents: durable.contents, modified: durable.modified, durable: durable)
                }
            }
            files = kept
        }
    }

    /// How many files exist, in all folders.
    public var fileCount: Int { lock.withLock { files.count } }
}
