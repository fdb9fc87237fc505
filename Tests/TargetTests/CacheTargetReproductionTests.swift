import CacheSpec
import CacheTarget
import Foundation
import PersistentCache
import Testing

/// Reproductions exactly as the `cache` target prints them (only the strategy line is a parameter):
/// each passes on the shipped cache and its last `#expect` fails on the mutant.
struct CacheTargetReproductionTests {
    @Test func keepCorruptFile() async {
        await keepCorruptFile(CacheStrategy.shipped)
        await withKnownIssue("expected: mutant keep-corrupt-file must fail this reproduction (not a bug)") { await keepCorruptFile(CacheStrategy(.keepCorruptFiles)) }
    }

    @Test func seedSeparateMemory() async {
        await seedSeparateMemory(CacheStrategy.shipped)
        await withKnownIssue("expected: mutant seed-separate-memory must fail this reproduction (not a bug)") { await seedSeparateMemory(CacheStrategy(.perInstanceMemory)) }
    }

    // Printed by `Target.cache.search(mutant: "keep-corrupt-file", options: SearchOptions(seed: 1, runs: 200))`.
    private func keepCorruptFile(_ strategy: CacheStrategy) async {
        // config(realFileSystem: false, cleanupInterval: 100)
        let clock = ManualClock()
        let root = "/caches"
        let disk = SimulatedFileSystem()
        let faults = FaultInjectingFileSystem(base: disk)
        let environment = CacheEnvironment(cachesDirectory: root, fileSystem: faults, clock: clock,
                                           cleanupInterval: 100, memoryTier: { ManualMemoryTier() })
        var caches = [CacheCore<CacheTargetKey, Data>(identifier: "main", environment: environment, strategy: strategy)]
        func restart(clean: Bool) {
            if clean { caches.forEach { $0.shutDown() } }
            environment.dropMemoryTiers()
            disk.powerLoss()
            faults.recover()
            faults.disarm()
            caches = caches.map { CacheCore(identifier: $0.identifier, environment: environment, strategy: strategy) }
        }
        func path(_ identifier: String, _ key: Int) -> String {
            environment.folder(for: identifier) + "/" + (caches[0].filePath(for: CacheTargetKey(key)) as NSString).lastPathComponent
        }
        // set(cache: v1, key: 1, tag: 0, length: 0)
        caches[0].set(CacheTargetValue.bytes(CacheValueSpec(tag: 0, length: 0)), for: CacheTargetKey(1))
        // flipBit(identifier: "main", key: 1, bit: 0)
        _ = CacheObservation.flag(faults.flipBit(in: path("main", 1), bit: 0))
        // faultySet(cache: v1, key: 0, tag: 0, length: 0, fault: "crashBeforeRename", tornLength: 0)
        do {
            faults.arm(.crashBeforeRename, tornLength: 0)
            caches[0].set(CacheTargetValue.bytes(CacheValueSpec(tag: 0, length: 0)), for: CacheTargetKey(0))
            let interrupted = faults.isCrashed
            faults.disarm()
            restart(clean: false)
            _ = CacheObservation.flag(interrupted)
        }
        // get(cache: v1, key: 1)
        _ = CacheTargetValue.observe(caches[0].value(for: CacheTargetKey(1)))
        // hasFile(identifier: "main", key: 1)
        #expect(CacheObservation.flag(faults.fileExists(at: path("main", 1))) == CacheObservation.flag(false))
    }

    // Printed by `Target.cache.search(mutant: "seed-separate-memory", options: SearchOptions(seed: 1, runs: 200))`.
    private func seedSeparateMemory(_ strategy: CacheStrategy) async {
        // config(realFileSystem: false, cleanupInterval: 100)
        let clock = ManualClock()
        let root = "/caches"
        let disk = SimulatedFileSystem()
        let faults = FaultInjectingFileSystem(base: disk)
        let environment = CacheEnvironment(cachesDirectory: root, fileSystem: faults, clock: clock,
                                           cleanupInterval: 100, memoryTier: { ManualMemoryTier() })
        let caches = [CacheCore<CacheTargetKey, Data>(identifier: "main", environment: environment, strategy: strategy)]
        // burst(key: 0, count: 2, tag: 1)
        do {
            let actor = MemoryCache<CacheTargetKey, Data>(identifier: "main", environment: environment, strategy: strategy)
            await actor.set(CacheTargetValue.bytes(CacheValueSpec(tag: 1, length: 8)), for: CacheTargetKey(0))
            await withTaskGroup(of: Void.self) { group in
                for spec in [CacheValueSpec(tag: 2, length: 9)] {
                    group.addTask { await actor.set(CacheTargetValue.bytes(spec), for: CacheTargetKey(0)) }
                    group.addTask { _ = await actor.value(for: CacheTargetKey(0)) }
                }
            }
            let after = CacheTargetValue.observe(await actor.value(for: CacheTargetKey(0)))
            _ = after
            await actor.set(CacheTargetValue.bytes(CacheValueSpec(tag: 3, length: 10)), for: CacheTargetKey(0))
            await actor.shutDown()
        }
        // contains(cache: v1, key: 0)
        #expect(CacheObservation.flag(caches[0].contains(CacheTargetKey(0))) == CacheObservation.flag(true))
    }
}
