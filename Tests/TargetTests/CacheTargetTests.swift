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
    func productionPasses(seed: UInt64) {
        let result = Target.cache.search(options: SearchOptions(seed: seed, runs: 300))
        #expect(result.failure == nil, "\(result.failure?.failure.description ?? "")")
        #expect(result.search.cases == 300)
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
            TraceStep("burst", [.init("key", .int(0)), .init("count", .int(4)), .init("tag", .int(3))]),
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
            .burst(key: 2, count: 5, tag: 250),
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
