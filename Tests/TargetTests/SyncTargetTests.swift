import Foundation
import GraphFuzzEngine
import SyncSpec
import SyncTarget
import Testing

/// The `sync` target: production passes, and every mutant is found with seed 1 within the default
/// budget (200 runs) and shrunk to its minimal story, asserted step by step below.
@Suite struct SyncTargetTests {
    @Test(arguments: [UInt64(1), 2])
    func productionPasses(seed: UInt64) throws {
        let result = try Campaign.firstFailure(.sync, options: SearchOptions(seed: seed, runs: 300))
        #expect(result.failures.isEmpty, "\(result.failures.first?.failure.description ?? "")")
        #expect(result.cases == 300)
        #expect(result.rejected == 0)
    }

    struct Minimum: Sendable, CustomStringConvertible {
        var mutant: String
        var rule: String
        /// The configuration, with the world the case starts from (`SyncStart`).
        var config = "config(granularity: \"record\")"
        var steps: [String]
        /// The seed searched (1 unless the generator's weights make another seed's first failure the documented one).
        var seed: UInt64 = 1
        var description: String { mutant }
    }

    /// A case may start migrated, with glass items both devices hold (`SyncStart`): stories that need
    /// such a world start there and are shorter by the steps that built it.
    static let minima: [Minimum] = [
        // With blobs the array arrives with its project record, before the item's own record (a partial delivery),
        // where the entity design shows it only with the item.
        Minimum(mutant: "blob-storage", rule: "S4", config: "config(granularity: \"record\", migrated: true, shared: 0)", steps: [
            "v4 = addItem(device: \"A\", project: v1, collection: \"glassItems\", code: 0)",
            "push(device: \"A\")",
            "fetch(device: \"B\", deliver: [v1])",
        ]),
        Minimum(mutant: "dual-write-misses-entities", rule: "S1", config: "config(granularity: \"record\", migrated: true, shared: 1)", steps: [
            "setQuantity(device: \"A\", item: v4, quantity: 2)",
        ]),
        // Seed 2: seed 1 starts its first 200 cases migrated or without two items before the migration.
        Minimum(mutant: "migration-loses-order", rule: "S2", steps: [
            "v4 = addItem(device: \"A\", project: v1, collection: \"glassItems\", code: 1)",
            "v5 = addItem(device: \"A\", project: v1, collection: \"glassItems\", code: 0)",
            "migrate()",
        ], seed: 2),
        Minimum(mutant: "link-before-parent", rule: "S7", config: "config(granularity: \"record\", migrated: true, shared: 0)", steps: [
            "v4 = createProject(device: \"A\", kind: \"log\")",
            "v5 = addItem(device: \"A\", project: v4, collection: \"glassItems\", code: 0)",
            "push(device: \"A\")",
            "fetch(device: \"B\", deliver: [v5, v4])",
        ]),
    ]

    @Test(arguments: minima)
    func mutantIsCaughtAndShrunk(_ minimum: Minimum) throws {
        let result = try Campaign.firstFailure(.sync, mutant: minimum.mutant, options: SearchOptions(seed: minimum.seed, runs: 200))
        let found = try #require(result.failures.first)
        #expect(found.failure.rule == minimum.rule)
        #expect(found.failure.kind == .mismatch)
        #expect(Target.sync.mutant(named: minimum.mutant)?.rule == minimum.rule)
        let story = try #require(found.counterexample)
        #expect(story.steps.count == minimum.steps.count)
        #expect(story.steps.count <= 8)
        #expect(Self.normalized(story.steps.map(\.description)) == minimum.steps)
        #expect(story.config.description == minimum.config)
        #expect(story.outcome.failure?.rule == minimum.rule)
    }

    /// Names devices by first appearance ("A" first): the story is the same whichever device plays which part.
    static func normalized(_ steps: [String]) -> [String] {
        let order = steps.joined().matches(of: /device: "([AB])"/).map { String($0.output.1) }
        guard let first = order.first, first == "B" else { return steps }
        return steps.map {
            $0.replacingOccurrences(of: "device: \"A\"", with: "device: \"#\"")
                .replacingOccurrences(of: "device: \"B\"", with: "device: \"A\"")
                .replacingOccurrences(of: "device: \"#\"", with: "device: \"B\"")
        }
    }

    /// The shrunk story is generator-independent: its trace replays and fails the same way on the
    /// mutant, and passes on production code.
    @Test(arguments: minima)
    func shrunkTraceReplays(_ minimum: Minimum) throws {
        let story = try #require(try Campaign.firstFailure(.sync, mutant: minimum.mutant, options: SearchOptions(seed: minimum.seed, runs: 200))
            .failures.first?.counterexample)
        let parsed = try story.steps.map { step throws in try SyncCommand(trace: step).trace }
        #expect(parsed == story.steps)
        let onMutant = Target.sync.machine(mutant: minimum.mutant).replay(story.config, story.steps)
        #expect((try onMutant.get()).outcome.failure?.rule == minimum.rule)
        let onProduction = Target.sync.machine().replay(story.config, story.steps)
        #expect((try onProduction.get()).outcome == .pass)
        #expect(story.swiftLines.contains { $0.hasPrefix("#expect(") })
    }

    /// Each mutant's shrunk case in the corpus format: written, read back and replayed (production
    /// passes, the mutant fails its rule), ready for `Corpus/` once `graph-fuzz` registers the target.
    @Test(arguments: minima)
    func corpusCaseRoundTrips(_ minimum: Minimum) throws {
        let result = try Campaign.firstFailure(.sync, mutant: minimum.mutant, options: SearchOptions(seed: minimum.seed, runs: 200))
        let found = try #require(result.failures.first)
        let made = try #require(Corpus.makeCase(found, fingerprint: Target.sync.generatorFingerprint))
        let parsed = try CorpusCase(parsing: made.text, file: made.fileName)
        #expect(parsed.steps == made.steps)
        let replay = try Corpus.replay(parsed, file: made.fileName, targets: [.sync])
        #expect(replay.passed, "\(replay.message)")
        #expect(!replay.drift)
        #expect(parsed.rule == minimum.rule)
    }

    @Test func unknownCommandIsNamed() {
        #expect(throws: TraceError("unknown sync command 'explode'")) {
            try SyncCommand(trace: TraceStep("explode"))
        }
    }

    @Test func rulesAndMutantsAreListed() {
        #expect(Target.sync.rules.map(\.id) == ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9"])
        #expect(Target.sync.mutants.map(\.name) == ["blob-storage", "dual-write-misses-entities", "migration-loses-order", "link-before-parent", "midpoint-positions"])
        for mutant in Target.sync.mutants { #expect(Target.sync.rules.contains { $0.id == mutant.rule }) }
    }
}
