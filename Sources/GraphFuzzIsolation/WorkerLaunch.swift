#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a worker process is started: the executable and its arguments, what its environment adds, and the
/// descriptor it writes its answers to. Each worker gets a scratch folder of its own, made and removed by its
/// parent; the launch says how the worker hears of it.
package struct WorkerLaunch: Sendable {
    package var executable: String
    /// The worker's arguments (the executable's name not included), given its scratch folder.
    package var arguments: @Sendable (_ scratchFolder: String) -> [String]
    /// Variables added to the parent's environment, given the scratch folder.
    package var environment: @Sendable (_ scratchFolder: String) -> [String: String]
    /// The descriptor the worker writes its answers to: standard output for `graph-fuzz worker`; a test binary,
    /// whose standard output is the test library's, answers on another (its standard output is then discarded).
    package var answers: Int32
    /// What `executable` runs when started with the worker's arguments, when it is this very process's executable:
    /// a parent whose other threads are quiet (the command line, `WorkerFork`) then forks itself into the worker and
    /// calls this with the arguments, its exit code ending the child (Linux), instead of starting the executable again. The child starts
    /// where the parent is, its libraries linked and its runtime started: a worker is ready about ten milliseconds
    /// sooner. Nil: always started from `executable`.
    package var entry: (@Sendable (_ arguments: [String]) -> Int32)?

    package init(executable: String, answers: Int32 = STDOUT_FILENO,
                 arguments: @escaping @Sendable (_ scratchFolder: String) -> [String],
                 environment: @escaping @Sendable (_ scratchFolder: String) -> [String: String] = { _ in [:] },
                 entry: (@Sendable (_ arguments: [String]) -> Int32)? = nil) {
        self.executable = executable
        self.answers = answers
        self.arguments = arguments
        self.environment = environment
        self.entry = entry
    }
}
