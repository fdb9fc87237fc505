import ExampleTargets
import Foundation
import GraphFuzzEngine
import GraphFuzzTesting
import Testing

@Suite("the one search loop")
struct SearchLoopTests {
    @Test("the groups, their counts and shrunk cases do not depend on the chunk size")
    func chunkSizeDoesNotMatter() throws {
        let machine = Target.queue.machine(mutant: "queue-off-by-one")
        let options = SearchOptions(seed: 3, runs: 500)
        let small = try SearchLoop(options: options, chunkSize: 7).run(InProcessExecutor(machine: machine, maxSteps: 30))
        let large = try SearchLoop(options: options, chunkSize: 500).run(InProcessExecutor(machine: machine, maxSteps: 30))
        #expect(small.cases == 500 && large.cases == 500)
        #expect(!small.found.isEmpty)
        #expect(small.found.map(\.caseCount) == large.found.map(\.caseCount))
        #expect(small.found.map(\.failure.shrunk) == large.found.map(\.failure.shrunk))
        #expect(small.found.map(\.failure.caseIndex) == large.found.map(\.failure.caseIndex))
        #expect(small.coverage.predictions == large.coverage.predictions)
        #expect(small.coverage.cases == 500)
    }

    @Test("GraphFuzzTest.check saves each failure to a corpus folder and replays it before the next search")
    func corpusSaveAndReplay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-fuzz-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var first: CheckResult?
        withKnownIssue("expected: the mutant's failure is recorded as an issue (not a bug)") {
            first = GraphFuzzTest.check(.queue, mutant: "queue-off-by-one", seed: 1, runs: 300, corpus: folder)
        }
        let found = try #require(first)
        #expect(found.replayed == 0)
        #expect(found.reports.count == 1)
        #expect(found.reports.first?.corpusFile != nil)
        // Printed readably, not as a struct dump.
        #expect(found.description.hasPrefix("graph-fuzz queue (mutant queue-off-by-one), seed 1: 300 cases, "))
        #expect(found.description.contains("FAILURE queue (mutant queue-off-by-one) — rule Q1, mismatch"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".case") }
        #expect(files.count == 1)
        // The saved case replays (the mutant still fails Q1, production passes): no issue from the replay.
        let second = GraphFuzzTest.check(.queue, seed: 2, runs: 100, corpus: folder)
        #expect(second.replayed == 0, "production checks replay only production cases")
        var again: CheckResult?
        withKnownIssue("expected: the mutant's failure is recorded again (not a bug)") {
            again = GraphFuzzTest.check(.queue, mutant: "queue-off-by-one", seed: 1, runs: 300, corpus: folder)
        } matching: { issue in
            // A replayed case that failed again would be an issue starting "corpus case": not expected.
            !(issue.comments.first?.rawValue.hasPrefix("corpus case") ?? false)
        }
        #expect(again?.replayed == 1)
    }
}
