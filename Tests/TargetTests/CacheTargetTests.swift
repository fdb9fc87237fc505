import CacheSpec
import CacheTarget
import Foundation
import GraphFuzzEngine
import Testing

/// The `cache` target: production passes, and the rules cover the mutants (each mutant's seeds 1–20 are
/// checked by MutantAttributionTests).
@Suite(.serialized)
struct CacheTargetTests {
    @Test(arguments: [UInt64(1), 2])
    func productionPasses(seed: UInt64) throws {
        let result = try Campaign.firstFailure(.cache, options: SearchOptions(seed: seed, runs: 300))
        #expect(result.failures.isEmpty, "\(result.failures.first?.failure.description ?? "")")
        #expect(result.cases == 300)
        #expect(result.steps > 300 * 10)
    }

    @Test func everyRuleIsListedOnce() {
        let ids = Target.cache.rules.map(\.id)
        #expect(ids == (1...10).map { "C\($0)" })
        #expect(Set(Target.cache.mutants.map(\.rule)).isSubset(of: Set(ids)))
    }

    /// The seed's in-place write under a torn write: the previous value is lost (C5), seen at the crash, whose
    /// observation holds the key's file after the restart (a 60-byte prefix); the shipped cache keeps it.
    @Test func tornWriteStory() throws {
        let steps = [
            TraceStep("set", [.init("cache", .ref(Ref(0))), .init("key", .int(2)), .init("tag", .int(1)), .init("length", .int(40))]),
            TraceStep("faultySet", [.init("cache", .ref(Ref(0))), .init("key", .int(2)), .init("tag", .int(2)), .init("length", .int(40)),
                                    .init("fault", .string("tornWrite")), .init("tornLength", .int(60))]),
            TraceStep("get", [.init("cache", .ref(Ref(0))), .init("key", .int(2))]),
        ]
        for real in [false, true] {
            let config = CacheConfig(realFileSystem: real).trace
            let production = try Target.cache.machine().replay(config, steps).get()
            #expect(production.outcome == .pass)
            let mutant = try Target.cache.machine(mutant: "seed-torn-write").replay(config, steps).get()
            #expect(mutant.outcome.failure?.rule == "C5")
            #expect(mutant.outcome.failure?.step == 1)
        }
    }

    /// Seed 003's read awaited inside the actor: a get of a value on disk and not in memory reads it off the actor
    /// while a set of the same key runs, then promotes the older value (a later get returns it, C1). In FIFO order
    /// the set runs first and nothing goes wrong; the shipped cache passes under both interleavings.
    static let reentrantReadSteps = [
        TraceStep("set", [.init("cache", .ref(Ref(0))), .init("key", .int(0)), .init("tag", .int(1)), .init("length", .int(200))]),
        TraceStep("evict", [.init("key", .int(0))]),
        TraceStep("concurrently", [.init("A", .step(TraceStep("actorGet", [.init("cache", .ref(Ref(0))), .init("key", .int(0))]))),
                                   .init("B", .step(TraceStep("actorSet", [.init("cache", .ref(Ref(0))), .init("key", .int(0)),
                                                                           .init("tag", .int(2)), .init("length", .int(5))]))),
                                   .init("schedule", .list([.int(0), .int(1)]))]),
        TraceStep("get", [.init("cache", .ref(Ref(0))), .init("key", .int(0))]),
    ]

    @Test func reentrantReadStory() throws {
        let config = CacheConfig().trace
        let fifo = Self.reentrantReadSteps.enumerated().map { index, step in
            index == 2 ? TraceStep(step.name, Array(step.arguments.dropLast())) : step
        }
        for steps in [Self.reentrantReadSteps, fifo] {
            #expect(try Target.cache.machine().replay(config, steps).get().outcome == .pass)
        }
        let mutant = try Target.cache.machine(mutant: "cache-reentrant-read").replay(config, Self.reentrantReadSteps).get()
        #expect(mutant.outcome.failure?.rule == "C1")
        #expect(mutant.outcome.failure?.step == 3)
        #expect(try Target.cache.machine(mutant: "cache-reentrant-read").replay(config, fifo).get().outcome == .pass)
    }

    @Test("one concurrent case of the cache, replayed 1,000 times: one observation sequence")
    func oneConcurrentCaseOneObservation() throws {
        let machine = Target.cache.machine(mutant: "cache-reentrant-read")
        var seen = Set<String>()
        for _ in 0..<1000 {
            let record = try machine.replay(CacheConfig().trace, Self.reentrantReadSteps).get()
            seen.insert("\(record.steps) \(record.expectations) \(record.outcome)")
        }
        #expect(seen.count == 1, "\(seen)")
    }

    @Test("The file system (real or simulated) is drawn as a parameter inside the configuration; the cleanup interval stands for steps")
    func fileSystemIsParameter() throws {
        #expect(CacheMachine().configurationStandsForSteps)
        let drawn = configurationSpans(of: CacheMachine())
        let config = try #require(drawn.config), parameters = drawn.parameters
        #expect(parameters.count == 1 && parameters[0].count == 1 && parameters[0].start == config.start && config.count > 1)
    }

    /// Real-file-system cases (one in ten) remove their temporary folders.
    @Test func realFileSystemCasesLeaveNothingBehind() throws {
        let parent = NSTemporaryDirectory() + "cache-target-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let machine = CacheMachine(temporaryDirectory: parent)
        let steps = [
            TraceStep("set", [.init("cache", .ref(Ref(0))), .init("key", .int(0)), .init("tag", .int(1)), .init("length", .int(5))]),
            TraceStep("open", result: Ref(1), [.init("identifier", .string("other"))]),
            TraceStep("faultySet", [.init("cache", .ref(Ref(1))), .init("key", .int(1)), .init("tag", .int(2)), .init("length", .int(5)),
                                    .init("fault", .string("crashBeforeRename")), .init("tornLength", .int(0))]),
            TraceStep("concurrently", [.init("A", .step(TraceStep("actorSet", [.init("cache", .ref(Ref(0))), .init("key", .int(0)), .init("tag", .int(3)), .init("length", .int(9))]))),
                                       .init("B", .step(TraceStep("actorGet", [.init("cache", .ref(Ref(0))), .init("key", .int(0))]))),
                                       .init("schedule", .list([.int(1), .int(0), .int(1)]))]),
            TraceStep("strayFiles", [.init("identifier", .string("other"))]),
            TraceStep("get", [.init("cache", .ref(Ref(1))), .init("key", .int(0))]),
        ]
        let record = try AnyMachine(machine).replay(CacheConfig(realFileSystem: true).trace, steps).get()
        #expect(record.outcome == .pass)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == [])
        let runner = MachineRunner(machine, maxSteps: 30)
        var realCases = 0
        for index in 0..<60 {
            let run = runner.run(Draw(seed: SplitMix64.caseSeed(run: 11, case: index)))
            #expect(run.outcome == .pass)
            if run.config.realFileSystem { realCases += 1 }
        }
        #expect(realCases > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == [])
    }

    @Test func tracesRoundTrip() throws {
        let commands: [CacheCommand] = [
            .get(cache: Ref(0), key: 1), .set(cache: Ref(1), key: 3, value: CacheValueSpec(tag: 7, length: 12)),
            .contains(cache: Ref(0), key: 2), .hasFile(identifier: .other, key: 0), .advance(seconds: 3600),
            .evict(key: nil), .evict(key: 2),
            .faultySet(cache: Ref(0), key: 1, value: CacheValueSpec(tag: 3, length: 0), fault: .tornWrite, tornLength: 17),
            .flipBit(identifier: .main, key: 3, bit: 99), .restart(clean: true), .open(result: Ref(1), identifier: .main),
            .cleanUp(cache: Ref(0)), .removeFolder(identifier: .other), .strayFiles(identifier: .main),
            .actorGet(cache: Ref(1), key: 2), .actorSet(cache: Ref(0), key: 3, value: CacheValueSpec(tag: 250, length: 5)),
        ]
        for command in commands {
            #expect(try CacheCommand(trace: command.trace) == command)
            let parsed = try TraceStep(parsing: Substring(command.trace.description))
            #expect(try CacheCommand(trace: parsed) == command)
        }
        #expect(throws: TraceError.self) { try CacheCommand(trace: TraceStep("explode")) }
        do {
            _ = try CacheCommand(trace: TraceStep("explode"))
        } catch {
            #expect(error.message.contains("explode"))
        }
        // The configuration's trace is derived as it is drawn, and read back by label.
        let config = CacheConfig(realFileSystem: true, cleanupInterval: 3)
        let replayed = try Target.cache.machine().replay(config.trace, []).get()
        #expect(replayed.config == config.trace)
    }
}
