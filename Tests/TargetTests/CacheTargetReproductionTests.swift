import CacheSpec
import CacheTarget
import Foundation
import PersistentCache
import Testing

/// Reproductions as the `cache` target printed them, on its export fixture (only the strategy is a parameter):
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

    // Printed by `Campaign.firstFailure(.cache, mutant: "keep-corrupt-file", options: SearchOptions(seed: 1, runs: 200))`.
    private func keepCorruptFile(_ strategy: CacheStrategy) async {
        // config(realFileSystem: false, cleanupInterval: 100)
        let app = CacheExportFixture(realFileSystem: false, cleanupInterval: 100, strategy: strategy)
        // set(cache: v1, key: 1, tag: 0, length: 0)
        app.caches[0].set(CacheTargetValue.bytes(CacheValueSpec(tag: 0, length: 0)), for: CacheTargetKey(1))
        // flipBit(identifier: "main", key: 1, bit: 0)
        _ = CacheObservation.flag(app.faults.flipBit(in: app.path("main", 1), bit: 0))
        // faultySet(cache: v1, key: 0, tag: 0, length: 0, fault: "crashBeforeRename", tornLength: 0)
        do {
            app.faults.arm(.crashBeforeRename, tornLength: 0)
            app.caches[0].set(CacheTargetValue.bytes(CacheValueSpec(tag: 0, length: 0)), for: CacheTargetKey(0))
            let interrupted = app.faults.isCrashed
            app.faults.disarm()
            app.restart(clean: false)
            _ = CacheObservation.flag(interrupted)
        }
        // get(cache: v1, key: 1)
        _ = CacheTargetValue.observe(app.caches[0].value(for: CacheTargetKey(1)))
        // hasFile(identifier: "main", key: 1)
        #expect(CacheObservation.flag(app.faults.fileExists(at: app.path("main", 1))) == CacheObservation.flag(false))
    }

    // Printed by `Campaign.firstFailure(.cache, mutant: "seed-separate-memory", options: SearchOptions(seed: 1, runs: 200))`.
    private func seedSeparateMemory(_ strategy: CacheStrategy) async {
        // config(realFileSystem: false, cleanupInterval: 100)
        let app = CacheExportFixture(realFileSystem: false, cleanupInterval: 100, strategy: strategy)
        // v2 = open(identifier: "main")
        app.caches.append(CacheCore(identifier: "main", environment: app.environment, strategy: app.strategy))
        // faultySet(cache: v2, key: 0, tag: 1, length: 1, fault: "failedWrite", tornLength: 0)
        do {
            app.faults.arm(.failedWrite, tornLength: 0)
            app.caches[1].set(CacheTargetValue.bytes(CacheValueSpec(tag: 1, length: 1), key: 0), for: CacheTargetKey(0))
            let interrupted = app.faults.isCrashed
            let fired = !app.faults.isArmed
            app.faults.disarm()
            _ = interrupted
            _ = fired
            _ = CacheObservation.failedWrite(renameReached: nil, app.folder(app.caches[1].identifier))
        }
        // get(cache: v1, key: 0)
        #expect(CacheTargetValue.observeRead(app.caches[0].value(for: CacheTargetKey(0)), key: 0) { app.faults.fileExists(at: app.path(app.caches[0].identifier, 0)) } == CacheObservation.value(CacheValueSpec(tag: 1, length: 1)))
    }
}
