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

/// The scratch folders a run hands out for the files its cases make (store files, cache folders): an in-process
/// run gets one, each worker process one of its own, made by the parent and removed by it however the worker
/// ended, so a worker killed in the middle of a case leaves nothing behind. They go in `$TMPDIR` when it is set,
/// else in /dev/shm when the machine has it (the SQLite cases' files are fastest in memory), else in the
/// temporary folder.
package enum ScratchFolder {
    /// The folder scratch folders are made in.
    package static var parent: String {
        if let tmp = ProcessInfo.processInfo.environment["TMPDIR"], !tmp.isEmpty { return tmp }
        if FileIO.isFolder("/dev/shm"), access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
        return temporaryDirectory
    }

    /// The temporary directory as `NSTemporaryDirectory()` gives it: $TMPDIR (relative to the working directory)
    /// else /tmp, with a trailing "/".
    package static var temporaryDirectory: String { FileManager.default.temporaryDirectory.path + "/" }

    /// Makes a new, empty scratch folder, `graph-fuzz-KIND-PID-RANDOM`, readable by this user only.
    package static func make(for kind: String) throws(ScratchFolderError) -> String {
        let parent = self.parent
        let path = FileIO.path(parent, appending: "graph-fuzz-\(kind)-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        guard mkdir(path, 0o700) == 0 else {
            throw ScratchFolderError(message: "harness fault: cannot create a scratch folder in \(parent): \(FileIO.reason(errno)) "
                + "(set TMPDIR to a writable folder)")
        }
        return path
    }

    /// Removes `path` and everything in it.
    package static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A scratch folder could not be made: a fault of the harness (a full or unwritable temporary folder), never of
/// the code under test.
package struct ScratchFolderError: Error, Equatable, CustomStringConvertible {
    package var message: String

    package init(message: String) { self.message = message }

    package var description: String { message }
}
