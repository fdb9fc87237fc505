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

/// A throwaway SQLite store file for one test case, in the folder its `ScratchStores` was told (by default
/// /dev/shm when the machine has it, else the temporary directory); unique per case. `remove()` deletes it with every companion the store may leave (SQLite's
/// journal, WAL and shared-memory files, and the `.creating` file a new store is built in before it is
/// renamed into place). Package access: the harness's targets use it; an app never sees it.
package struct ScratchStoreFile: Sendable {
    package let path: String

    /// The folder scratch files go in when none is given: /dev/shm when the machine has it, else the temporary
    /// directory. A constant of the machine, worked out once per process.
    static let defaultDirectory: String = {
        let shm = "/dev/shm"
        var info = stat()
        let usesShm = stat(shm, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && FileManager.default.isWritableFile(atPath: shm)
        // The temporary directory as `NSTemporaryDirectory()` gives it ($TMPDIR, else /tmp, with a trailing slash).
        let directory = usesShm ? shm : FileManager.default.temporaryDirectory.path + "/"
        return directory.hasSuffix("/") ? directory : directory + "/"
    }()

    /// Why the harness cannot write a file where this one goes (its folder missing or unwritable, the disk
    /// full), or nil when it can. Asked only after the store failed to create this file, to tell the harness's
    /// own I/O failure (not the store's to answer for) from the store's refusal.
    package func unwritable() -> (any Error)? {
        let probe = path + ".probe"
        defer { try? FileManager.default.removeItem(atPath: probe) }
        do { try Data([0]).write(to: URL(fileURLWithPath: probe)) } catch { return error }
        return nil
    }

    /// Removes the file and its companions (those that exist).
    package func remove() {
        for base in [path, path + ".creating"] {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(base + suffix) }
        }
    }

    /// The bytes of the file at `path`. Throws the `POSIXError` of the read that failed.
    package static func contents(of path: String) throws(POSIXError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.lastError }
        defer { _ = close(descriptor) }
        // Read into one buffer of the file's size (and one byte more, to see the end), grown if the file is longer.
        var info = stat()
        let expected = fstat(descriptor, &info) == 0 ? max(Int(info.st_size), 0) : 0
        var capacity = expected + 1
        while true {
            var failure: POSIXError?
            var complete = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, filled in
                filled = 0
                while filled < buffer.count {
                    let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                    if count < 0, errno == EINTR { continue }
                    guard count >= 0 else {
                        failure = Self.lastError
                        return
                    }
                    if count == 0 {
                        complete = true
                        return
                    }
                    filled += count
                }
            }
            if let failure { throw failure }
            if complete { return bytes }
            // Longer than it was: read it again from the start into a bigger buffer.
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw Self.lastError }
            capacity = max(2 * capacity, 65_536)
        }
    }

    /// Writes `bytes` to `path`, creating the file or truncating it (`exclusive`: the file must not exist), with
    /// its first `zeroed` bytes written as zeros (a damaged copy, without copying the bytes). Throws the
    /// `POSIXError` of the call that failed; a file left part-written is removed.
    package static func write(_ bytes: [UInt8], to path: String, exclusive: Bool = false, zeroed: Int = 0) throws(POSIXError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard descriptor >= 0 else { throw Self.lastError }
        var failure: POSIXError?
        func writeAll(_ buffer: UnsafeRawBufferPointer) {
            var written = 0
            while written < buffer.count {
                #if canImport(Glibc)
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #else
                let count = Darwin.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #endif
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    failure = count < 0 ? Self.lastError : POSIXError(.EIO)
                    return
                }
                written += count
            }
        }
        let zeros = min(max(zeroed, 0), bytes.count)
        if zeros > 0 { [UInt8](repeating: 0, count: zeros).withUnsafeBytes { writeAll($0) } }
        if failure == nil { bytes.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[zeros...])) } }
        if close(descriptor) != 0, failure == nil { failure = Self.lastError }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    private static var lastError: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

