import CacheTarget
import GraphFuzzEngine
import GraphSpec
@testable import GraphTarget
import Testing

@Suite("harness faults in the targets: the harness's own I/O, never judged as the system's")
struct HarnessFaultTargetTests {
    @Test("cache: a real-disk case whose scratch folder cannot be created ends in a harness fault, not a failure")
    func cacheScratchFolder() throws {
        // Under /dev/null no folder can be created, for root too.
        let runner = MachineRunner(CacheMachine(temporaryDirectory: "/dev/null/graph-fuzz"), maxSteps: 10)
        var realDisk = 0, simulated = 0
        for index in 0..<60 {
            let run = runner.run(Draw(seed: SplitMix64.caseSeed(run: 1, case: index)))
            #expect(run.outcome.failure == nil, "case \(index): \(run.outcome)")
            if run.config.realFileSystem {
                realDisk += 1
                let fault = try #require(run.outcome.harnessFault, "case \(index): \(run.outcome)")
                #expect(fault.step == nil)
                #expect(fault.message.hasPrefix("cannot create the real-disk case's scratch folder /dev/null/graph-fuzz/graphfuzz-cache-"))
                #expect(fault.message.hasSuffix(": Not a directory (errno 20)"))
                #expect(fault.place.hasPrefix("CacheTarget/CacheSystem.swift:"))
            } else {
                simulated += 1
                #expect(run.outcome == .pass, "case \(index): the simulated disk needs no scratch folder")
            }
        }
        #expect(realDisk > 0 && simulated > 0)
    }

    @Test("graph: a store file the harness cannot read for its damaged copies (G26) is a harness fault; a readable one is judged")
    func graphDamagedCopies() throws {
        var system = try GraphSystem(config: GraphConfig(backend: .sqlite))
        defer { GraphMachine().tearDown(&system) }
        let path = try #require(system.container.path)
        // The harness's own read fails: not the store's refusal.
        #expect(throws: HarnessFault.self) { try system.damagedCopyRefusals(of: "/dev/null/graph-fuzz/missing.sqlite") }
        do {
            _ = try system.damagedCopyRefusals(of: "/dev/null/graph-fuzz/missing.sqlite")
        } catch {
            #expect(error.message.hasPrefix("cannot read the store file /dev/null/graph-fuzz/missing.sqlite to make damaged copies of it (G26): "))
            #expect(error.place.hasPrefix("GraphTarget/GraphSystem+Launch.swift:"))
        }
        // The store's own refusals of the copies it could write are what G26 judges.
        #expect(try system.damagedCopyRefusals(of: path) == StoreDamage.allCases.map(GraphModel.refusal))
    }
}
