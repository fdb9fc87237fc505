import BooksSpec
import CacheSpec
@testable import CacheTarget
import Foundation
import GraphFuzzEngine
import GraphSpec
import GraphStoreRules
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

    @Test("cache: a real disk that fails on its own during a step (no injected fault) is a harness fault; injected faults are judged")
    func cacheRealDiskFails() throws {
        let machine = CacheMachine()
        var system = try machine.makeSystem(CacheConfig(realFileSystem: true))
        defer { machine.tearDown(&system) }
        let value = CacheValueSpec(tag: 1, length: 8)
        // An injected failed write is the step's to judge (C8), not the machine's disk.
        _ = try machine.perform(.faultySet(cache: Ref(0), key: 0, value: value, fault: .failedWrite, tornLength: 0), &system)
        // A set observes its folder: key 1's file alone (the failed write left none for key 0).
        #expect(try machine.perform(.set(cache: Ref(0), key: 1, value: value), &system) == .folders([CacheFolder(identifier: 0, files: 1 << 1)]))
        // Something outside the cache puts a file where its folder was: every write there fails with an I/O error
        // (ENOTDIR) that nothing predicted.
        let folder = system.folder(.main)
        try FileManager.default.removeItem(atPath: folder)
        #expect(FileManager.default.createFile(atPath: folder, contents: Data([1])))
        #expect(throws: HarnessFault.self) { try machine.perform(.set(cache: Ref(0), key: 2, value: value), &system) }
        do { _ = try machine.perform(.set(cache: Ref(0), key: 3, value: value), &system) } catch let fault as HarnessFault {
            #expect(fault.message.hasPrefix("the real file system failed on its own during the step (no injected fault): write \(folder)/"))
            #expect(fault.message.hasSuffix(": ioError"))
        }
    }

    @Test("graph: a store file the harness cannot read for its damaged copies (G26) is a harness fault; a readable one is judged")
    func graphDamagedCopies() throws {
        var system = try GraphSystem(config: GraphConfig(parameters: StoreParameters(backend: .sqlite)))
        defer { GraphMachine().tearDown(&system) }
        let path = try #require(system.store.container.path)
        // The harness's own read fails: not the store's refusal.
        #expect(throws: HarnessFault.self) { try system.store.damagedCopyRefusals(of: "/dev/null/graph-fuzz/missing.sqlite") }
        do {
            _ = try system.store.damagedCopyRefusals(of: "/dev/null/graph-fuzz/missing.sqlite")
        } catch {
            #expect(error.message.hasPrefix("cannot read the store file /dev/null/graph-fuzz/missing.sqlite to make damaged copies of it (G26): "))
            #expect(error.place.hasPrefix("GraphStoreRules/SchemaSystem+Launch.swift:"))
        }
        // The store's own refusals of the copies it could write are what G26 judges.
        #expect(try system.store.damagedCopyRefusals(of: path) == StoreDamage.allCases.map { GraphModel.refusal($0).rawValue })
    }
}
