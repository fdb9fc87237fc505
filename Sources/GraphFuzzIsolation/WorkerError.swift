#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A worker process could not be started or misbehaved: a fault of the harness or of the machine, never of the
/// code under test. Exit code 3, or 2 when the user can fix it (`usage`: too many open files).
package struct WorkerError: Error, CustomStringConvertible {
    package var message: String
    /// The user can fix it (the message says how): exit 2 rather than 3.
    package var usage = false
    package var description: String { message }

    package init(message: String, usage: Bool = false) {
        self.message = message
        self.usage = usage
    }

    /// An error the user can fix, as the message says.
    init(usage message: String) { self.init(message: message, usage: true) }

    /// `error` as a worker error: itself when it is one, else an internal error naming it.
    package static func from(_ error: any Error) -> WorkerError {
        error as? WorkerError ?? WorkerError(message: "\(error)")
    }

    /// A worker trapped in the harness's own code: an internal error, not a crash of the code under test.
    static func harness(_ trapLine: String) -> WorkerError {
        WorkerError(message: "the harness itself trapped in a worker (not a failure of the code under test): \(trapLine)")
    }

    /// The system's reason for `code` (`strerror`), for example "Too many open files".
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A system call failed with `code`: out of descriptors is the user's to fix (exit 2).
    static func system(_ what: String, _ code: Int32) -> WorkerError {
        if code == EMFILE || code == ENFILE {
            return WorkerError(usage: "\(what): \(reason(code)); raise the open-file limit (for example `ulimit -n 1024`) or use fewer --jobs")
        }
        return WorkerError(message: "\(what): \(reason(code))")
    }

    /// Process isolation where this build has no child processes (iOS, tvOS, watchOS, visionOS, or a build with
    /// `GRAPHFUZZ_NO_PROCESSES`).
    package static var unavailable: WorkerError {
        WorkerError(message: "process isolation is unavailable on this platform: it cannot start child processes "
            + "(iOS, tvOS, watchOS, visionOS, or a build with GRAPHFUZZ_NO_PROCESSES); run the cases in this process (isolation: .none)")
    }
}
