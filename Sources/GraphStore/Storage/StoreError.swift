/// Why a store file could not be opened, read or written. Carries the file and, for SQLite's own
/// errors, its result code and message.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// The file exists but is empty (a store truncated to nothing, or a file that was never a store).
        case emptyFile
        /// The file is shorter than an SQLite header, or holds fewer pages than its header promises.
        case truncated
        /// The file does not start with the SQLite header: not a database.
        case notADatabase
        /// SQLite found the database malformed (`PRAGMA quick_check`, or `SQLITE_CORRUPT` on a read).
        case corrupt
        /// A valid SQLite database without GraphStore's metadata table.
        case notAGraphStore
        /// A GraphStore file whose tables do not match the container's schema.
        case schemaMismatch
        /// SQLite refused an operation (I/O error, full disk, locked file, …).
        case sqlite
        /// The container is closed (after `relaunch()`, `close()` or an interrupted save).
        case closed
        /// A save was interrupted at a chosen write operation (the harness's stand-in for a killed process).
        case interrupted
    }

    public var kind: Kind
    /// The store file (`":memory-rows:"` for the in-memory backend).
    public var path: String
    /// SQLite's result code, 0 when the error is GraphStore's own.
    public var code: Int32
    /// What was wrong, and where.
    public var message: String

    public init(_ kind: Kind, path: String, code: Int32 = 0, message: String) {
        self.kind = kind
        self.path = path
        self.code = code
        self.message = message
    }

    public var description: String {
        "\(path): \(kind.rawValue)" + (code != 0 ? " (SQLite \(code))" : "") + ": \(message)"
    }
}
