import Foundation
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

    /// The system's reason inside a Foundation error, when it carries one.
    package static func reason(of error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return reason(Int32(underlying.code))
        }
        if error.domain == NSPOSIXErrorDomain { return reason(Int32(error.code)) }
        return error.localizedDescription
    }

    /// Creates `path` and its parents if missing; an error if it is a file.
    package static func createFolder(_ path: String) throws(FileError) {
        guard !path.isEmpty else { throw FileError(file: "''", action: "use an empty path as a folder", reason: "No such file or directory") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw FileError(file: path, action: "use it as a folder", reason: reason(ENOTDIR)) }
            return
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw FileError(file: path, action: "create the folder", reason: reason(of: error))
        }
    }

    /// Writes `text` to `path` atomically. `temporary` names the hidden file used on the way
    /// (default: `.NAME.PID.tmp` beside it); it never survives a failed write.
    package static func writeAtomically(_ text: String, to path: String, temporary: String? = nil) throws(FileError) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = temporary ?? (folder as NSString).appendingPathComponent(".\(name).\(getpid()).tmp")
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

    /// Removes the file at `path`.
    package static func remove(_ path: String) throws(FileError) {
        guard unlink(path) == 0 else { throw FileError(file: path, action: "remove it", reason: reason(errno)) }
    }

    /// Checks, before any work, that cases can be saved in `folder`: an existing folder gets a
    /// small probe file written and removed (a read-only folder or a full disk shows here); a
    /// missing one needs its nearest existing parent to be a writable folder (it is created only
    /// when a case is saved).
    package static func checkWritableFolder(_ folder: String) throws(FileError) {
        guard !folder.isEmpty else { throw FileError(file: "''", action: "use an empty path as a folder", reason: reason(ENOENT)) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw FileError(file: folder, action: "use it as a folder", reason: reason(ENOTDIR)) }
            let probe = (folder as NSString).appendingPathComponent(".graph-fuzz-probe.\(getpid())")
            try writeAtomically(String(repeating: "graph-fuzz checks that this folder can be written\n", count: 80), to: probe,
                                temporary: probe + ".tmp")
            try remove(probe)
            return
        }
        var parent = (folder as NSString).deletingLastPathComponent
        if parent.isEmpty { parent = "." }
        while !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) {
            let next = (parent as NSString).deletingLastPathComponent
            parent = next.isEmpty ? "." : next
        }
        guard isDirectory.boolValue else { throw FileError(file: parent, action: "create \(folder) inside it", reason: reason(ENOTDIR)) }
        guard access(parent, W_OK) == 0 else { throw FileError(file: parent, action: "create \(folder) inside it", reason: reason(errno)) }
    }
}
