import Foundation

/// A file-system fault, armed for the next write (or rename).
public enum FileSystemFault: String, Sendable, CaseIterable {
    /// The next write fails and writes nothing.
    case failedWrite
    /// The next write fails because the disk is full.
    case fullDisk
    /// The next write persists only a prefix of its bytes, then the process crashes.
    case tornWrite
    /// The next rename never happens: the process crashes between the write and the rename.
    case crashBeforeRename
}

/// Wraps a file system (real or simulated) and injects faults on command: failed writes, a full
/// disk, torn writes, a crash before a rename, a flipped bit at rest and a vanished folder.
/// After a crash every operation fails until `recover()` (the process restarted).
public final class FaultInjectingFileSystem: CacheFileSystem, @unchecked Sendable {
    public let base: any CacheFileSystem
    private let lock = NSLock()
    private var armed: FileSystemFault?
    private var tornLength = 0
    private var crashed = false

    public init(base: any CacheFileSystem) { self.base = base }

    /// Arms `fault` for the next write (`crashBeforeRename`: the next rename). `tornLength` is the
    /// number of bytes a torn write keeps (clamped to the write's length).
    public func arm(_ fault: FileSystemFault, tornLength: Int = 0) {
        lock.withLock {
            armed = fault
            self.tornLength = tornLength
        }
    }

    /// Disarms any fault not yet fired.
    public func disarm() { lock.withLock { armed = nil } }

    /// Whether a crash fault fired and the process has not restarted yet.
    public var isCrashed: Bool { lock.withLock { crashed } }

    /// The process restarted: operations work again.
    public func recover() { lock.withLock { crashed = false } }

    /// Flips bit `bit` (modulo the file's size) of the file at `path`, in place and durably.
    /// Returns false when there is no such file or it is empty.
    @discardableResult
    public func flipBit(in path: String, bit: Int) -> Bool {
        guard var data = try? base.read(path), !data.isEmpty else { return false }
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.utf8.startIndex
        let folder = String(path[..<slash])
        let name = String(path[path.utf8.index(after: slash)...])
        let modified = (try? base.list(folder))?.first { $0.name == name }?.modified ?? Date()
        let index = (bit / 8) % data.count
        data[data.startIndex + index] ^= UInt8(1 << (bit % 8))
        do {
            try base.write(data, to: path, modified: modified)
            try base.synchronize(path)
        } catch {
            return false
        }
        return true
    }

    /// The folder vanished (the system purged the caches directory).
    public func removeFolderExternally(_ path: String) { try? base.removeFolder(at: path) }

    private func checkCrashed(_ path: String, _ operation: String) throws(FileSystemError) {
        if lock.withLock({ crashed }) { throw FileSystemError(.crashed, path: path, operation: operation) }
    }

    /// Takes the armed fault if it applies to `operation`.
    private func take(for operation: String) -> (FileSystemFault, Int)? {
        lock.withLock {
            guard let fault = armed else { return nil }
            let applies = fault == .crashBeforeRename ? operation == "rename" : operation == "write"
            guard applies else { return nil }
            armed = nil
            if fault == .tornWrite || fault == .crashBeforeRename { crashed = true }
            return (fault, tornLength)
        }
    }

    public func createFolder(at path: String) throws(FileSystemError) {
        try checkCrashed(path, "createFolder")
        try base.createFolder(at: path)
    }

    public func folderExists(at path: String) -> Bool { base.folderExists(at: path) }

    public func write(_ data: Data, to path: String, modified: Date) throws(FileSystemError) {
        try checkCrashed(path, "write")
        if let (fault, length) = take(for: "write") {
            switch fault {
            case .failedWrite: throw FileSystemError(.ioError, path: path, operation: "write")
            case .fullDisk: throw FileSystemError(.diskFull, path: path, operation: "write")
            case .tornWrite:
                let kept = data.prefix(Swift.min(length, data.count))
                try? base.write(Data(kept), to: path, modified: modified)
                try? base.synchronize(path)
                throw FileSystemError(.crashed, path: path, operation: "write")
            case .crashBeforeRename: break
            }
        }
        try base.write(data, to: path, modified: modified)
    }

    public func synchronize(_ path: String) throws(FileSystemError) {
        try checkCrashed(path, "synchronize")
        try base.synchronize(path)
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try checkCrashed(source, "rename")
        if take(for: "rename") != nil { throw FileSystemError(.crashed, path: source, operation: "rename") }
        try base.rename(source, to: destination)
    }

    public func read(_ path: String) throws(FileSystemError) -> Data {
        try checkCrashed(path, "read")
        return try base.read(path)
    }

    public func fileExists(at path: String) -> Bool { base.fileExists(at: path) }

    public func remove(_ path: String) throws(FileSystemError) {
        try checkCrashed(path, "remove")
        try base.remove(path)
    }

    public func list(_ folder: String) throws(FileSystemError) -> [(name: String, modified: Date)] {
        try checkCrashed(folder, "list")
        return try base.list(folder)
    }

    public func removeFolder(at path: String) throws(FileSystemError) {
        try checkCrashed(path, "removeFolder")
        try base.removeFolder(at: path)
    }
}
