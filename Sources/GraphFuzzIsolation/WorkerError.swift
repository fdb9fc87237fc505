import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A worker process could not be started or misbehaved, or workers keep dying: a fault of the harness, of the machine
/// it runs on or of graph-fuzz, never of the code under test. Its `kind` says which (`runError`: how a run reports it).
package struct WorkerError: Error, CustomStringConvertible {
    /// Whose fault it is.
    package enum Kind: Equatable, Sendable {
        /// graph-fuzz's own: a worker that broke the protocol or trapped in the harness, isolation unavailable.
        case internalError
        /// The machine's: workers keep dying without a reproducing case (the OOM killer, a CI runner's limits).
        case infrastructure
        /// The user's, who can fix it as the message says (too many open files): exit 2.
        case usage
        /// No scratch folder could be made for a worker (a full or unwritable temporary folder).
        case scratchFolder
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind = .internalError, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The error as a run reports it.
    package var runError: RunError {
        switch kind {
        case .internalError: return .internalError(message)
        case .infrastructure: return .infrastructure(message)
        case .usage: return .usage(message)
        case .scratchFolder: return .scratchFolder(ScratchFolderError(message: message))
        }
    }

    package var description: String { runError.description }

    /// A worker trapped in the harness's own code: an internal error, not a crash of the code under test.
    static func harness(_ trapLine: String) -> WorkerError {
        WorkerError(.internalError, "the harness itself trapped in a worker (not a failure of the code under test): \(trapLine)")
    }

    /// The system's reason for `code` (`strerror`), for example "Too many open files".
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A system call failed with `code`: out of descriptors is the user's to fix (exit 2).
    static func system(_ what: String, _ code: Int32) -> WorkerError {
        if code == EMFILE || code == ENFILE {
            return WorkerError(.usage, "\(what): \(reason(code)); raise the open-file limit (for example `ulimit -n 1024`) or use fewer --jobs")
        }
        return WorkerError(.internalError, "\(what): \(reason(code))")
    }

    /// Process isolation where this build has no child processes (iOS, tvOS, watchOS, visionOS, or a build with
    /// `GRAPHFUZZ_NO_PROCESSES`).
    package static var unavailable: WorkerError {
        WorkerError(.internalError, "process isolation is unavailable on this platform: it cannot start child processes "
            + "(iOS, tvOS, watchOS, visionOS, or a build with GRAPHFUZZ_NO_PROCESSES); run the cases in this process (isolation: .none)")
    }
}
