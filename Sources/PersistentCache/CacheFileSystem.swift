#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file-system operation that failed, with the path and the reason.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case notFound, folderMissing, diskFull, ioError, crashed, notAFolder
    }
    public var reason: Reason
    public var path: String
    public var operation: String

    public init(_ reason: Reason, path: String, operation: String) {
        self.reason = reason
        self.path = path
        self.operation = operation
    }

    public var description: String { "\(operation) \(path): \(reason.rawValue)" }
}

/// The file-system seam: only what the disk tier needs. Paths are absolute strings.
public protocol CacheFileSystem: Sendable {
    /// Creates `path` and missing parents; succeeds when it exists.
    func createFolder(at path: String) throws(FileSystemError)
    func folderExists(at path: String) -> Bool
    /// Creates or replaces the file's contents in place and sets its modification date. Not durable yet.
    func write(_ data: Data, to path: String, modified: Date) throws(FileSystemError)
    /// Makes the file's current contents durable (fsync).
    func synchronize(_ path: String) throws(FileSystemError)
    /// Atomically renames `source` over `destination`.
    func rename(_ source: String, to destination: String) throws(FileSystemError)
    func read(_ path: String) throws(FileSystemError) -> Data
    func fileExists(at path: String) -> Bool
    func remove(_ path: String) throws(FileSystemError)
    /// The names (not paths) of the files in `folder` with their modification dates, sorted by name.
    func list(_ folder: String) throws(FileSystemError) -> [(name: String, modified: Date)]
    /// Removes a folder and everything in it (tests and the missing-folder fault use it; the cache does not).
    func removeFolder(at path: String) throws(FileSystemError)
}
