#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A file-system fault, armed for the next write (or `fsync`, or rename).
public enum FileSystemFault: String, Sendable, CaseIterable {
    /// The next write fails and writes nothing.
    case failedWrite
    /// The next write fails because the disk is full.
    case fullDisk
    /// The next write persists only a prefix of its bytes, then the process crashes.
    case tornWrite
    /// The next rename never happens: the process crashes between the write and the rename.
    case crashBeforeRename
    /// The next write writes a prefix of its bytes and fails with an I/O error; the process goes on.
    case partialWrite
    /// The disk fills up during the next write: a prefix is written, then it fails with "disk full".
    case fullDiskMidFile
    /// The next `fsync` (`synchronize`) fails with an I/O error after the bytes were written.
    case failedSync
    /// The next rename fails with an I/O error; the process goes on and the source file stays.
    case failedRename

    /// The operation the fault fires on.
    var operation: String {
        switch self {
        case .crashBeforeRename, .failedRename: return "rename"
        case .failedSync: return "synchronize"
        case .failedWrite, .fullDisk, .tornWrite, .partialWrite, .fullDiskMidFile: return "write"
        }
    }
}

/// Wraps a file system (real or simulated) and injects faults on command: failed writes, a full
/// disk (before the first byte or mid-file), torn writes, partial writes, a failed `fsync`, a failed rename,
/// a crash before a rename, a flipped bit at rest and a vanished folder.
/// After a crash every operation fails until `recover()` (the process restarted).
public final class FaultInjectingFileSystem: CacheFileSystem, Sendable {
    public let base: any CacheFileSystem
    private let state = Mutex(State())

    private struct State {
        var armed: FileSystemFault?
        var tornLength = 0
        var crashed = false
        /// The first failure of the file system underneath that no armed fault made, not taken yet.
        var environmentFailure: FileSystemError?
    }

    public init(base: any CacheFileSystem) { self.base = base }

    /// Arms `fault` for the next operation it applies to (`FileSystemFault.operation`). `tornLength` is the number of
    /// bytes a torn, partial or mid-file write keeps (clamped to the write's length).
    public func arm(_ fault: FileSystemFault, tornLength: Int = 0) {
        state.withLock { state in
            state.armed = fault
            state.tornLength = tornLength
        }
    }

    /// Disarms any fault not yet fired.
    public func disarm() { state.withLock { $0.armed = nil } }

    /// Whether a fault is armed and has not fired yet.
    public var isArmed: Bool { state.withLock { $0.armed != nil } }

    /// Whether a crash fault fired and the process has not restarted yet.
    public var isCrashed: Bool { state.withLock { $0.crashed } }

    /// The process restarted: operations work again.
    public func recover() { state.withLock { $0.crashed = false } }

    /// The first failure of the file system underneath that no armed fault made since the last call (a real disk
    /// that filled up or failed: disk full, an I/O error), and forgets it; nil when there was none. The cache hides
    /// such failures like injected ones, but nothing predicted them: a harness cannot judge a step after one.
    /// (A missing file or folder is an answer, not a failure.)
    public func takeEnvironmentFailure() -> FileSystemError? {
        state.withLock { state in
            defer { state.environmentFailure = nil }
            return state.environmentFailure
        }
    }

    /// Runs an operation of the file system underneath, noting a failure no fault made (`takeEnvironmentFailure`).
    private func onBase<T>(_ operation: () throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        do { return try operation() } catch {
            if error.reason == .diskFull || error.reason == .ioError || error.reason == .notAFolder {
                state.withLock { state in if state.environmentFailure == nil { state.environmentFailure = error } }
            }
            throw error
        }
    }

    /// Flips bit `bit` (modulo the file's size) of the file at `path`, in place and durably.
    /// Returns false when there is no such file or it is empty.
    @discardableResult
    public func flipBit(in path: String, bit: Int) -> Bool {
        guard var data = try? onBase({ () throws(FileSystemError) in try base.read(path) }), !data.isEmpty else { return false }
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.utf8.startIndex
        let folder = String(path[..<slash])
        let name = String(path[path.utf8.index(after: slash)...])
        let modified = (try? base.list(folder))?.first { $0.name == name }?.modified ?? Date()
        let index = (bit / 8) % data.count
        data[data.startIndex + index] ^= UInt8(1 << (bit % 8))
        do {
            try onBase { () throws(FileSystemError) in
                try base.write(data, to: path, modified: modified)
                try base.synchronize(path)
            }
        } catch {
            return false
        }
        return true
    }

    /// The folder vanished (the system purged the caches directory).
    public func removeFolderExternally(_ path: String) { try? onBase { () throws(FileSystemError) in try base.removeFolder(at: path) } }

    private func checkCrashed(_ path: String, _ operation: String) throws(FileSystemError) {
        if state.withLock({ $0.crashed }) { throw FileSystemError(.crashed, path: path, operation: operation) }
    }

    /// Takes the armed fault if it applies to `operation`.
    private func take(for operation: String) -> (FileSystemFault, Int)? {
        state.withLock { state in
            guard let fault = state.armed else { return nil }
            guard fault.operation == operation else { return nil }
            state.armed = nil
            if fault == .tornWrite || fault == .crashBeforeRename { state.crashed = true }
            return (fault, state.tornLength)
        }
    }

    public func createFolder(at path: String) throws(FileSystemError) {
        try checkCrashed(path, "createFolder")
        try onBase { () throws(FileSystemError) in try base.createFolder(at: path) }
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
                try? onBase { () throws(FileSystemError) in
                    try base.write(Data(kept), to: path, modified: modified)
                    try base.synchronize(path)
                }
                throw FileSystemError(.crashed, path: path, operation: "write")
            case .partialWrite, .fullDiskMidFile:
                let kept = data.prefix(Swift.min(length, data.count))
                try? onBase { () throws(FileSystemError) in try base.write(Data(kept), to: path, modified: modified) }
                throw FileSystemError(fault == .partialWrite ? .ioError : .diskFull, path: path, operation: "write")
            case .crashBeforeRename, .failedSync, .failedRename: break
            }
        }
        try onBase { () throws(FileSystemError) in try base.write(data, to: path, modified: modified) }
    }

    public func synchronize(_ path: String) throws(FileSystemError) {
        try checkCrashed(path, "synchronize")
        if take(for: "synchronize") != nil { throw FileSystemError(.ioError, path: path, operation: "synchronize") }
        try onBase { () throws(FileSystemError) in try base.synchronize(path) }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try checkCrashed(source, "rename")
        if let (fault, _) = take(for: "rename") {
            throw FileSystemError(fault == .failedRename ? .ioError : .crashed, path: source, operation: "rename")
        }
        try onBase { () throws(FileSystemError) in try base.rename(source, to: destination) }
    }

    public func read(_ path: String) throws(FileSystemError) -> Data {
        try checkCrashed(path, "read")
        return try onBase { () throws(FileSystemError) in try base.read(path) }
    }

    public func fileExists(at path: String) -> Bool { base.fileExists(at: path) }

    public func remove(_ path: String) throws(FileSystemError) {
        try checkCrashed(path, "remove")
        try onBase { () throws(FileSystemError) in try base.remove(path) }
    }

    public func list(_ folder: String) throws(FileSystemError) -> [(name: String, modified: Date)] {
        try checkCrashed(folder, "list")
        return try onBase { () throws(FileSystemError) in try base.list(folder) }
    }

    public func removeFolder(at path: String) throws(FileSystemError) {
        try checkCrashed(path, "removeFolder")
        try onBase { () throws(FileSystemError) in try base.removeFolder(at: path) }
    }
}
