import GraphFuzzCLI
import GraphFuzzEngine
import Testing

@Suite("bench: on-disk cases measured on their own")
struct OnDiskBenchTests {
    @Test("graph, mapper and cache measure their on-disk configurations apart, at their share of a search; the queue has none")
    func onDiskRows() throws {
        let targets = Registry.standard.targets
        for name in ["graph", "mapper", "cache"] {
            let target = try #require(targets.first { $0.name == name })
            let disk = try #require(target.machine().measureOnDisk(seed: 1, cases: 3, maxSteps: target.defaultSteps, minimumSeconds: 0), "\(name) has no on-disk row")
            #expect(disk.cases == 3)
            #expect(disk.steps > 0 && disk.stepsPerSecond > 0)
            // A tenth of the cases run on disk (each target draws its backend with probability 0.1).
            #expect(disk.caseShare > 0.05 && disk.caseShare < 0.15, "\(name): \(disk.caseShare)")
            let share = disk.timeShare(inMemoryStepsPerSecond: disk.stepsPerSecond * 10)
            #expect(share > disk.caseShare, "slower cases take more than their share of the time")
        }
        let queue = try #require(targets.first { $0.name == "queue" })
        #expect(queue.machine().measureOnDisk(seed: 1, cases: 3, maxSteps: queue.defaultSteps, minimumSeconds: 0) == nil)
    }
}
