import Foundation
import GraphFuzzEngine
import ScheduleSamples
import Testing

// Compiled without `@testable`: the example uses only the engine's public API.

@Suite("docs/scheduling.md shows the low-level example the tests run")
struct DocumentationExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test("the example runs: a case, its lanes and lines, its replay")
    func lowLevelExample() {
// BEGIN SCHEDULING DOC: low-level
let draw = Draw(seed: 7)
let counter = ReentrantCounter()
let (run, branches) = Scheduler(draw: draw).runConcurrently([
    ScheduledBranch("A") { await counter.increment("A") },
    ScheduledBranch("B") { await counter.increment("B") },
])
let outcome = run.outcome       // .completed(()), .deadlock(waiting:) or .jobLimit(jobs)
let lanes = run.lanes           // the interleaving: a lane per task, a row per job
let lines = run.lines           // the same, one line per job
let began = branches[0].started // the step at which A began; .finished, .result, .cancelled

// The same choices replay the same interleaving.
let replay = Scheduler(draw: Draw(replaying: draw.sequence)).runConcurrently([
    ScheduledBranch("A") { await counter.increment("A") },
    ScheduledBranch("B") { await counter.increment("B") },
])
// END SCHEDULING DOC: low-level
        if case .completed = outcome {} else { Issue.record("the example did not complete: \(outcome)") }
        #expect(lanes.count == lines.count + 1 && lanes[0].contains("A") && lanes[0].contains("B"))
        #expect(began != nil && branches[1].finished != nil)
        #expect(replay.run.lines == lines)
    }

    @Test("docs/scheduling.md prints the example as the test has it")
    func exampleInDocument() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(source.range(of: "// BEGIN SCHEDULING DOC: low-level\n"))
        let end = try #require(source.range(of: "// END SCHEDULING DOC: low-level"))
        let block = String(source[start.upperBound..<end.lowerBound])
        let document = try String(contentsOfFile: Self.root + "/docs/scheduling.md", encoding: .utf8)
        #expect(document.contains("```swift\n" + block + "```"), "docs/scheduling.md does not show the example as DocumentationExampleTests has it")
    }
}
