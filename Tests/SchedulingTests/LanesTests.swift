@testable import GraphFuzzEngine
import ScheduleSamples
import Testing

/// The cells of `lanes` by lane title: one array per lane, one cell per step.
private func cells(_ lanes: [String]) -> [String: [String]] {
    let titles = lanes[0].components(separatedBy: " │ ").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    var columns: [String: [String]] = [:]
    for row in lanes.dropFirst() {
        let parts = row.components(separatedBy: " │ ")
        for (index, title) in titles.enumerated() {
            // A row whose last lanes are empty ends in `│` (its trailing spaces trimmed).
            let cell = index + 1 < parts.count ? parts[index + 1].trimmingCharacters(in: .whitespaces) : ""
            columns[title, default: []].append(cell.hasSuffix(" │") ? String(cell.dropLast(2)) : cell)
        }
    }
    return columns
}

@Suite("lanes")
struct LanesTests {
    @Test("a lost update drawn as lanes: each branch reads (increment #1 → #2) before the other writes (#3)")
    func lostUpdateLanes() throws {
        let seed = try #require((UInt64(1)...100).first { LostUpdate.run(Draw(seed: $0)).isLost })
        let found = LostUpdate.run(Draw(seed: seed))
        let lanes = found.run.lanes
        #expect(lanes.count == found.run.lines.count + 1)
        let columns = cells(lanes)
        let a = try #require(columns["A"]), b = try #require(columns["B"])
        func row(_ cells: [String], _ text: String) -> Int? { cells.firstIndex { $0.contains(text) } }
        let aReads = try #require(row(a, "increment(_:) #1 → #2")), aWrites = try #require(row(a, "increment(_:) #3"))
        let bReads = try #require(row(b, "increment(_:) #1 → #2")), bWrites = try #require(row(b, "increment(_:) #3"))
        #expect(aReads <= bWrites && bReads <= aWrites, "\(lanes.joined(separator: "\n"))")
        // The actor each job ran on heads its row; the same choices draw the same lanes.
        #expect(lanes.dropFirst().contains { $0.hasPrefix("#") && $0.contains("ReentrantCounter#1 │") })
        #expect(LostUpdate.run(Draw(seed: seed)).run.lanes == lanes)
    }

    @Test("a branch's Task.yield: the job that queues it again is written in its lane, the lanes are the branches")
    func yieldResumptionInLane() throws {
        let (run, _) = Scheduler(draw: Draw(replaying: ChoiceSequence([]))).runConcurrently([
            ScheduledBranch("A") { await Task.yield() },
            ScheduledBranch("B") {},
        ])
        let lanes = run.lanes
        #expect(lanes[0].components(separatedBy: " │ ").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == ["A", "B"])
        let a = try #require(cells(lanes)["A"])
        let resumption = try #require(lanes.dropFirst().firstIndex { $0.hasPrefix("#") && $0.contains(" resumption ") },
                                      "\(lanes.joined(separator: "\n"))")
        #expect(a[resumption - 1] == "queued again after its yield", "\(lanes.joined(separator: "\n"))")
        // Every row has the lanes' columns only: nothing named after them.
        #expect(lanes.allSatisfy { $0.components(separatedBy: " │ ").count <= 3 }, "\(lanes.joined(separator: "\n"))")
    }

    @Test("lanes hide the runtime's own tasks and name what a sleeping branch waits in")
    func runtimeTasksHidden() {
        let outcome = CancelledTransfer.run(Draw(seed: 5), .halfUpdated)
        let lanes = outcome.run.lanes
        #expect(lanes[0].components(separatedBy: " │ ").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == ["A", "B"])
        #expect(lanes.contains { $0.contains("moveToSavings(_:) #1 → Clock.sleep") }, "\(lanes.joined(separator: "\n"))")
        #expect(lanes.contains { $0.contains("timer 5 ms") })
    }
}
