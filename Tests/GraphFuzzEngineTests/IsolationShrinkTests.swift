import ExampleTargets
import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
@testable import GraphFuzzTesting
import Testing
import TestTargets

@Suite("process isolation shrinks as in process")
struct IsolationShrinkTests {
    /// A worker shrinks a failure itself, running each candidate as it would run one sent to it, so the shrinker sees
    /// what every candidate consumed as it does in process (a passing candidate that came back without it would make
    /// the shrink take other steps: 28 attempts against 15 for this case), and no candidate runs twice.
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
        // Each failure was shrunk in the worker that ran its lowest case again, with no request per candidate.
        #expect(executor.requests.shrinks == found.count)
        #expect(executor.requests.shrinksHandedBack == 0)
        #expect(executor.requests.candidates == found.map(\.shrink.attempts).reduce(0, +))
        #expect(executor.requests.descriptions == found.count)
        #expect(executor.requests.confirms == 0)
    }

    @Test("a worker's own shrink that a candidate takes down is made again candidate by candidate: the same shrunk cases in the same attempts")
    func handedBack() throws {
        let target = Target.plantedDivider
        let check = CheckIsolation.name(target: target.name, mutant: nil, maxSteps: 6, sourceLocation: #_sourceLocation)
        ProcessIsolation.serveIfWorker(check: check, maxSteps: 6) { target.machine(mutant: nil, scratchFolder: $0) }
        let options = SearchOptions(seed: 1, runs: 60)
        func search(inWorker: Bool) throws -> (SearchRun, RequestCounts) {
            let executor = try #require(try CheckIsolation.executor(target: target, check: check, test: Test.current) as? ProcessExecutor)
            executor.shrinksInWorker = inWorker
            let run = try Campaign(selection: [], options: options).search(SearchPlan(target, mutant: nil, options: options),
                                                                           executor: executor, target: target) { _ in }
            return (run, executor.requests)
        }
        let (inWorker, counts) = try search(inWorker: true)
        let (byCandidate, _) = try search(inWorker: false)
        let wrong = try #require(inWorker.failures.first { $0.failure.rule == "D1" })
        #expect(wrong.counterexample?.steps.map(\.description) == ["divide(divisor: 7)"])
        // Zeroing a step divides by zero: the worker shrinking the wrong quotient dies, and the shrink is made again.
        #expect(counts.shrinksHandedBack == 1)
        #expect(inWorker.failures.map(\.shrunk) == byCandidate.failures.map(\.shrunk))
        #expect(inWorker.failures.map(\.shrink.attempts) == byCandidate.failures.map(\.shrink.attempts))
        #expect(inWorker.failures.map(\.counterexample) == byCandidate.failures.map(\.counterexample))
    }
}
