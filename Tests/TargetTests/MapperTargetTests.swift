import GraphFuzzEngine
import MapperSpec
import MapperTarget
import Testing

@Suite("mapper target")
struct MapperTargetTests {
    @Test("Production passes", arguments: [1, 2] as [UInt64])
    func production(seed: UInt64) throws {
        let result = try Campaign.firstFailure(.mapper, options: SearchOptions(seed: seed, runs: 300))
        #expect(result.failures.isEmpty, "\(result.failures.first.map { "\($0.failure)" } ?? "")")
        #expect(result.cases == 300)
    }

    @Test("The store's backend is drawn as a parameter inside the configuration; the store's behaviours stand for steps")
    func backendIsParameter() throws {
        #expect(MapperMachine().configurationStandsForSteps)
        let drawn = configurationSpans(of: MapperMachine())
        let config = try #require(drawn.config), parameters = drawn.parameters
        // The last of the configuration's four choices (onDisk), alone in its span.
        #expect(config.count == 4)
        #expect(parameters.count == 1 && parameters[0].count == 1 && parameters[0].end == config.end)
    }

    @Test("A shrunk counterexample replays from its trace: it fails on the mutant and passes on production")
    func replay() throws {
        let result = try Campaign.firstFailure(.mapper, mutant: "forgot-cache-eviction", options: SearchOptions(seed: 1, runs: 200))
        let record = try #require(result.failures.first?.counterexample)
        let text = record.steps.map(\.description)
        #expect(text.contains("deleteElsewhere(work: v1)"))
        let onMutant = Target.mapper.machine(mutant: "forgot-cache-eviction").replay(record.config, record.steps)
        #expect(try onMutant.get().outcome.failure?.rule == "M11")
        let onProduction = Target.mapper.machine().replay(record.config, record.steps)
        #expect(try onProduction.get().outcome == .pass)
    }

    @Test("Traces round-trip, and unreadable steps name the problem")
    func traces() throws {
        let response = SpecResponse(
            works: [SpecResponse.Work(title: 1, tags: [2, 0], synthetic: true, provider: nil, volumes: [3])],
            editions: [SpecResponse.Edition(isbn: nil, work: 0), SpecResponse.Edition(isbn: 2, work: 1)],
            authors: [SpecResponse.Author(name: 2, works: [0, 1])])
        let commands: [MapperCommand] = [
            .map(response, result: Ref(0)), .save, .rollback, .deleteWork(Ref(0), evict: true),
            .deleteElsewhere(Ref(0)), .clearCache, .newContext,
        ]
        for command in commands {
            let parsed = try TraceStep(parsing: Substring(command.trace.description))
            #expect(try MapperCommand(trace: parsed) == command)
        }
        #expect(throws: TraceError.self) { try MapperCommand(trace: TraceStep("explode")) }
        let bad = TraceStep("map", [.init("works", .list([.list([.string("Nope"), .list([]), .bool(false), .null, .list([])])])),
                                     .init("editions", .list([])), .init("authors", .list([]))])
        let error = #expect(throws: TraceError.self) { try MapperCommand(trace: bad) }
        #expect(error?.message.contains("Nope") == true)
    }

    @Test("The target lists the specification's rules, and every mutant names one of them")
    func listing() {
        #expect(Target.mapper.rules == MapperRules.all)
        let ids = Set(MapperRules.all.map(\.id))
        #expect(Target.mapper.mutants.count == 11)
        #expect(Target.mapper.mutants.allSatisfy { ids.contains($0.rule) })
    }
}
