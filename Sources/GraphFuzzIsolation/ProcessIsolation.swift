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
import GraphFuzzEngine

/// Process isolation's front door for `GraphFuzzTest.check(…, isolation: .process)`: the running test binary is
/// started again as a worker, filtered to the running test, with `checkVariable` naming the check. In that worker
/// the same `check` call does not search: it serves the worker protocol (`serveIfWorker`) on descriptor
/// `testAnswers` (its standard output is the test library's) until its input ends, and the process ends. A trap
/// ends that worker, not the test run: a fresh one replaces it.
///
/// Where processes cannot be started (iOS, tvOS, watchOS, visionOS, or a build with `GRAPHFUZZ_NO_PROCESSES`),
/// `isAvailable` is false and `testExecutor` throws `WorkerError.unavailable`; everything else works.
package enum ProcessIsolation {
    /// Whether this build can start worker processes.
    package static var isAvailable: Bool {
        #if GRAPHFUZZ_NO_PROCESSES
        return false
        #else
        return true
        #endif
    }

    /// The environment variable naming the check a test binary was started again to serve.
    package static let checkVariable = "GRAPHFUZZ_ISOLATED_CHECK"
    /// The environment variable naming a worker's scratch folder (made and removed by its parent).
    package static let scratchVariable = "GRAPHFUZZ_WORKER_SCRATCH"
    /// The descriptor a test binary started as a worker answers on.
    package static let testAnswers: Int32 = 3

    /// An executor running the cases of the target named `name` in one worker at a time: the test binary
    /// `executable` started again with `arguments` (which filter it to the running test), serving the check named
    /// `check`. `note` hears what the harness did that is no failure of the code under test.
    package static func testExecutor(name: String, executable: String, arguments: [String],
                                     check: String, note: @escaping (String) -> Void) throws(WorkerError) -> any CaseExecutor {
        #if GRAPHFUZZ_NO_PROCESSES
        throw WorkerError.unavailable
        #else
        let launch = WorkerLaunch(executable: executable, answers: testAnswers, arguments: { _ in arguments },
                                  environment: { scratchFolder in [checkVariable: check, scratchVariable: scratchFolder] })
        return ProcessExecutor(name: name, workers: 1, caseTimeout: 10, launch: launch, note: note)
        #endif
    }

    /// In a test binary started again to serve the check named `check`: serves the worker protocol with the machine
    /// `machine` makes for the worker's scratch folder, then ends the process (the test never goes on in a
    /// worker). Anywhere else it returns at once.
    package static func serveIfWorker(check: String, maxSteps: Int, machine: (_ scratchFolder: String?) -> AnyMachine) {
        #if !GRAPHFUZZ_NO_PROCESSES
        let environment = ProcessInfo.processInfo.environment
        guard environment[checkVariable] == check else { return }
        let scratchFolder = environment[scratchVariable]
        exit(WorkerServer(machine: machine(scratchFolder), maxSteps: maxSteps, scratchFolder: scratchFolder, answers: testAnswers).serve())
        #endif
    }
}
