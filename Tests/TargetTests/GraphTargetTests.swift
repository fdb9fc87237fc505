import GraphFuzzEngine
import GraphSpec
import GraphTarget
import Testing

@Suite("graph target")
struct GraphTargetTests {
    @Test("Production code passes", arguments: [UInt64(1), 2])
    func production(seed: UInt64) {
        let result = Target.graph.search(options: SearchOptions(seed: seed, runs: 300))
        #expect(result.failure == nil, "\(String(describing: result.failure?.failure))")
        #expect(result.search.cases == 300)
        #expect(result.steps > 300 * 5)
    }

    @Test("A shrunk counterexample replays from its trace to the same failure")
    func replay() throws {
        let result = Target.graph.search(mutant: "edition-nullify", options: SearchOptions(seed: 3, runs: 2000))
        let record = try #require(result.counterexample)
        let replayed = try Target.graph.machine(mutant: "edition-nullify").replay(record.config, record.steps).get()
        #expect(replayed.outcome.failure?.rule == "B4")
        #expect(replayed.steps == record.steps)
        let production = try Target.graph.machine().replay(record.config, record.steps).get()
        #expect(production.outcome == .pass)
        #expect(record.swiftLines.contains { $0.contains("#expect(saveCode == 1600)") })
    }

    @Test("An unknown step and an argument out of range are named with their step")
    func unknownCommand() throws {
        let machine = Target.graph.machine()
        let config = try TraceStep(parsing: "config(schema: \"local\", newModelLink: \"autoInsert\", temporaryIDAfterSave: \"resolves\", registeredAfterForeignDelete: \"none\")")
        let unknown = try #require(throws: TraceReplayError.self) { try machine.replay(config, [TraceStep("teleport")]).get() }
        #expect(unknown.step == 0)
        #expect(unknown.message.hasPrefix("step 1 'teleport()': unknown step 'teleport' (expected one of create, insert, relate"))
        let create = try TraceStep(parsing: "v1 = create(entity: \"Work\", variant: 7, context: 0)")
        #expect(throws: TraceReplayError(step: 0, message: "step 1 '\(create)': argument 'variant' of 'create' is 7, outside 0...2")) {
            try machine.replay(config, [create]).get()
        }
    }

    @Test("The rule list has every rule a mutant names, and the CloudKit prediction (B7) names deny only for local")
    func rules() {
        let ids = Set(Target.graph.rules.map(\.id))
        for mutant in Target.graph.mutants { #expect(ids.contains(mutant.rule)) }
        #expect(BooksEntities.cloudKitViolations(.local).contains("denyDeleteRule: Edition.userLibraryEntries"))
        #expect(BooksEntities.cloudKitViolations(.cloudKit).isEmpty)
    }
}
