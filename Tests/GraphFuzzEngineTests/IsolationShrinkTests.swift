import ExampleTargets
import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
@testable import GraphFuzzTesting
import Testing

@Suite("process isolation shrinks as in process")
struct IsolationShrinkTests {
    /// A candidate that finished in the worker runs again here, so the shrinker sees what it consumed as it does in
    /// process (a passing candidate that came back unrun would make the shrink take other steps: 28 attempts
    /// against 15 for this case).
    @Test("a check's worker finds the same shrunk cases in the same attempts as in process")
    func sameShrink() throws {
        let mutant = "queue-off-by-one", steps = Target.queue.defaultSteps
        let check = CheckIsolation.name(target: Target.queue.name, mutant: mutant, maxSteps: steps, sourceLocation: #_sourceLocation)
        ProcessIsolation.serveIfWorker(check: check, maxSteps: steps) { Target.queue.machine(mutant: mutant, scratchFolder: $0) }
        let options = SearchOptions(seed: 1, runs: 2)
        let inProcess = try Target.queue.run(mutant: mutant, options: options, maxSteps: steps)
        let isolated = try Target.queue.run(mutant: mutant, options: options, maxSteps: steps,
                                            executor: CheckIsolation.executor(target: .queue, machine: Target.queue.machine(mutant: mutant),
                                                                              maxSteps: steps, check: check,
                                                                              test: Test.current))
        let found = inProcess.found.compactMap(\.result.failure)
        #expect(!found.isEmpty)
        #expect(isolated.found.compactMap(\.result.failure?.shrink.attempts) == found.map(\.shrink.attempts))
        #expect(isolated.found.compactMap(\.result.failure?.shrunk) == found.map(\.shrunk))
    }
}
