import ExampleTargets
import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
@testable import GraphFuzzTesting
import Testing

@Suite("process isolation shrinks as in process")
struct IsolationShrinkTests {
    /// A worker answers each candidate with what it consumed, so the shrinker sees what every candidate consumed as it
    /// does in process (a passing candidate that came back without it would make the shrink take other steps: 28
    /// attempts against 15 for this case), and no candidate runs twice.
    @Test("a check's worker finds the same shrunk cases in the same attempts as in process, running each case once")
    func sameShrink() throws {
        let mutant = "queue-off-by-one", steps = Target.queue.defaultSteps
        let check = CheckIsolation.name(target: Target.queue.name, mutant: mutant, maxSteps: steps, sourceLocation: #_sourceLocation)
        ProcessIsolation.serveIfWorker(check: check, maxSteps: steps) { Target.queue.machine(mutant: mutant, scratchFolder: $0) }
        let options = SearchOptions(seed: 1, runs: 2)
        let inProcess = try Campaign(selection: [(.queue, mutant)], options: options).run { _ in }[0]
        let executor = try #require(try CheckIsolation.executor(target: .queue, check: check, test: Test.current) as? ProcessExecutor)
        let isolated = try Campaign(selection: [], options: options).search(SearchPlan(.queue, mutant: mutant, options: options),
                                                                            executor: executor, target: .queue) { _ in }
        let found = inProcess.failures
        #expect(!found.isEmpty)
        #expect(isolated.failures.map(\.shrink.attempts) == found.map(\.shrink.attempts))
        #expect(isolated.failures.map(\.shrunk) == found.map(\.shrunk))
        #expect(isolated.failures.map(\.counterexample) == found.map(\.counterexample))
        // Each case ran once, in a worker: the search's, each group's lowest case, each candidate, each shrunk case
        // described; none again after a worker's answer (this process has no machine to run them).
        #expect(executor.requests.cases == 2)
        #expect(executor.requests.firstRuns == found.count)
        #expect(executor.requests.candidates == found.map(\.shrink.attempts).reduce(0, +))
        #expect(executor.requests.descriptions == found.count)
        #expect(executor.requests.confirms == 0)
    }
}
