import CacheTarget
import ExampleTargets
import GraphFuzzEngine
import GraphTarget
import MapperTarget
import SyncTarget
import Testing

/// The project's own targets pass the coverage health checks at a modest budget: no target
/// rejects most of its cases, every action's precondition holds sometimes, and every rule is
/// exercised — a gap would be listed in `knownGaps` as a known issue, never dropped from the
/// check; a new warning fails the test.
@Suite("coverage health of the project's targets")
struct CoverageHealthTests {
    /// Rules no prediction or invariant check of the target names as deciding in 300 cases of seed 1:
    /// none today (issues 12 and 14 split the save and map observations so each part credits the rule
    /// that decided it). A gap is listed here as a known issue, never dropped from the check.
    static let knownGaps: [String: Set<String>] = [:]

    static let targets = [Target.graph, Target.schemas, Target.mapper, Target.cache, Target.sync, Target.queue]

    @Test("no health warning for any target at 300 cases, known gaps aside", arguments: ["graph", "schemas", "mapper", "cache", "sync", "queue"])
    func healthy(_ name: String) throws {
        let target = try #require(Self.targets.first { $0.name == name })
        let report = try target.coverage(options: SearchOptions(seed: 1, runs: 300))
        #expect(report.cases == 300)
        let gaps = Self.knownGaps[target.name] ?? []
        let known = report.warnings.filter { warning in gaps.contains { warning.hasPrefix("\(target.name): rule \($0) was never exercised") } }
        let unknown = report.warnings.filter { !known.contains($0) }
        #expect(unknown.isEmpty, "health warnings: \(unknown.joined(separator: "; "))")
        if !known.isEmpty {
            withKnownIssue("expected: a rule listed in knownGaps that the search does not reach yet") {
                Issue.record(Comment(rawValue: known.joined(separator: "\n")))
            }
        }
    }

    @Test("the health checks fire: rejected cases, a rule never exercised, a precondition that never held")
    func checksCanFail() {
        var coverage = Coverage(actions: [Coverage.ActionCount(name: "pop", ran: 0, held: 0, failed: 7)], predictions: ["R1": 5], cases: 10)
        coverage.invariants["R1"] = 1
        let rules = [Rule(id: "R1", statement: "", source: ""), Rule(id: "R2", statement: "", source: "")]
        let report = CoverageReport(target: "t", rules: rules, coverage: coverage, cases: 10_000, rejected: 6_000)
        #expect(report.rows.map(\.decided) == [6, 0])
        #expect(report.never == ["R2"])
        #expect(report.rare.map(\.rule) == ["R1"])
        #expect(report.warnings == [
            "t: 6000 of 10000 cases were rejected (more than 50%): the generators waste most cases",
            "t: rule R2 was never exercised in 10000 cases",
            "t: the precondition of action pop never held (7 checks)",
        ])
        #expect(report.summaryLines.first == "t: rules exercised in fewer than 1 in 1000 cases: R1 (6)")
    }
}
