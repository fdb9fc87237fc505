import ExampleTargets
import GraphFuzzEngine
@testable import GraphFuzzTesting
import Testing

@Suite("process isolation shrinks as in process")
struct IsolationShrinkTests {
    /// A candidate that finished in the child runs again here, so the shrinker sees what it consumed as it does in
    /// process (before, a passing candidate came back unrun: 28 attempts against 15 for this case).
    @Test("a check with isolation: .process finds the same shrunk cases in the same attempts as in process")
    func sameShrink() throws {
        let mutant = "queue-off-by-one", steps = Target.queue.defaultSteps
        let machine = Target.queue.machine(mutant: mutant)
        if let child = IsolatedChild.current(target: Target.queue.name, seed: 1) {
            child.serve(machine, maxSteps: steps)
        }
        let options = SearchOptions(seed: 1, runs: 2)
        let inProcess = try Target.queue.run(mutant: mutant, options: options, maxSteps: steps)
        let isolated = try Target.queue.run(mutant: mutant, options: options, maxSteps: steps,
                                            executor: IsolatedExecutor(target: Target.queue.name, seed: 1, machine: machine,
                                                                       maxSteps: steps, test: Test.current))
        let found = inProcess.found.compactMap(\.result.failure)
        #expect(!found.isEmpty)
        #expect(isolated.found.compactMap(\.result.failure?.shrink.attempts) == found.map(\.shrink.attempts))
        #expect(isolated.found.compactMap(\.result.failure?.shrunk) == found.map(\.shrunk))
    }
}
