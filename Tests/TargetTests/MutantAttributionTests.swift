import CacheTarget
import ExampleTargets
import Foundation
import GraphFuzzEngine
import GraphTarget
import MapperTarget
import SyncTarget
import Testing

/// A failure names the rule that broke: for every mutant of every target and seeds 1–20 at the CLI's default
/// budget, the mutant is found, and the failure names a rule the mutant declares in at least 18 of the 20 (a rule
/// is named where the specification last decided the part that differs, so a seed may find the fault first where
/// another rule decided it). How small the counterexamples shrink is a figure of `graph-fuzz bench` (its mutant
/// table), not a bound a test holds.
/// One test argument per mutant, so Swift Testing runs them in parallel and a failure names the mutant, the
/// seeds and the rules they named.
@Suite("mutant attribution")
struct MutantAttributionTests {
    /// A mutant of a target, named for the test list.
    struct Case: Sendable, CustomTestStringConvertible {
        var target: Target
        var mutant: Mutant
        var testDescription: String { "\(target.name)/\(mutant.name)" }
    }

    /// Sync first: its mutants take longest (two-device stories), and arguments start in this order, so the
    /// parallel run does not end on one long argument.
    static let targets: [Target] = [.sync, .graph, .mapper, .cache, .queue]
    static let cases: [Case] = targets.flatMap { target in target.mutants.map { Case(target: target, mutant: $0) } }

    /// Seeds of the 20 whose failure may name a rule the mutant does not declare.
    static let otherRules = 2

    @Test("Seeds 1–20: found, under a rule the mutant declares in 18", arguments: cases)
    func attribution(_ item: Case) throws {
        var misattributed: [String] = [], missed: [UInt64] = []
        for seed in UInt64(1)...20 {
            // Not shrunk: a shrink keeps the failure's signature, so the first failing case already names the
            // rule its shrunk form would (how far each shrinks is graph-fuzz bench's figure).
            let result = try Campaign.firstFailure(item.target, mutant: item.mutant.name,
                                                   options: SearchOptions(seed: seed, runs: 2000, shrinkBudget: ShrinkBudget(maxAttempts: 0)))
            guard let found = result.failures.first else {
                missed.append(seed)
                continue
            }
            if found.isMisattributed { misattributed.append("seed \(seed): \(found.failure.rule)") }
        }
        #expect(missed.isEmpty, "\(item.mutant.name) not found with seeds \(missed)")
        #expect(misattributed.count <= Self.otherRules,
                "\(item.mutant.name) breaks \(item.mutant.rules.joined(separator: "/")); other rules: \(misattributed.joined(separator: ", "))")
    }

    @Test("A misattributed run says so in its report's headline")
    func headline() throws {
        let target = Target.queue
        var result = try #require(try Campaign.firstFailure(target, mutant: "queue-off-by-one", options: SearchOptions(seed: 1, runs: 2000)).failures.first)
        let rule = result.failure.rule
        #expect(!result.isMisattributed)
        #expect(!FailureReport(result).text.contains("this run found"))
        result.plan.declaredRules = ["Q9"]
        #expect(result.isMisattributed)
        let headline = FailureReport(result).text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(headline.hasSuffix("(mutant queue-off-by-one breaks Q9; this run found \(rule))"), "\(headline)")
    }
}
