import CacheSpec
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import PersistentCache

/// What every exported cache regression test (`graph-fuzz export-tests`) sets up, so each holds only its
/// case's steps: an app's cache instances over a manual clock, manual memory tiers and a fault-injecting
/// file system — simulated, or a fresh temporary folder on the real disk (removed with the fixture). Steps
/// call the production API through it (`app.caches[0].set(…)`, `app.faults.arm(…)`); `restart(clean:)` is
/// an app restart. Used only by exported tests.
public final class CacheExportFixture {
    public let clock = ManualClock()
    /// The caches folder.
    public let root: String
    public let faults: FaultInjectingFileSystem
    public let environment: CacheEnvironment
    /// The cache design under test: shipped, or a mutant's when a test is run against it.
    package let strategy: CacheStrategy
    /// The open instances, the `main` cache first.
    public var caches: [CacheCore<CacheTargetKey, Data>]
    /// The simulated disk (nil on the real one): a restart loses what it never made durable.
    private let disk: SimulatedFileSystem?

    package init(realFileSystem: Bool, cleanupInterval: Int, strategy: CacheStrategy) {
        if realFileSystem {
            root = ScratchFolder.temporaryDirectory + "graphfuzz-cache-repro-" + UUID().uuidString
            disk = nil
            faults = FaultInjectingFileSystem(base: LocalFileSystem())
        } else {
            root = "/caches"
            let disk = SimulatedFileSystem()
            self.disk = disk
            faults = FaultInjectingFileSystem(base: disk)
        }
        environment = CacheEnvironment(cachesDirectory: root, fileSystem: faults, clock: clock,
                                       cleanupInterval: cleanupInterval, memoryTier: { ManualMemoryTier() })
        self.strategy = strategy
        caches = [CacheCore(identifier: "main", environment: environment, strategy: strategy)]
    }

    deinit {
        if disk == nil { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A process restart: shutdown cleanups (if clean), memory gone, non-durable data gone, every instance reopened.
    public func restart(clean: Bool) {
        if clean { caches.forEach { $0.shutDown() } }
        environment.dropMemoryTiers()
        disk?.powerLoss()
        faults.recover()
        faults.disarm()
        caches = caches.map { CacheCore(identifier: $0.identifier, environment: environment, strategy: strategy) }
    }

    /// The entry file of `key` in the folder of the instance named `identifier`.
    public func path(_ identifier: String, _ key: Int) -> String {
        environment.folder(for: identifier) + "/" + FileIO.lastComponent(of: caches[0].filePath(for: CacheTargetKey(key)))
    }

    /// The folder of the instances named `identifier`, as the target observes it.
    public func folder(_ identifier: String) -> CacheFolder {
        let names = (0..<CacheMachine.keyCount).map { FileIO.lastComponent(of: path(identifier, $0)) }
        return CacheTargetFiles.folder(CacheTargetFiles.index(of: identifier), at: environment.folder(for: identifier), names: names, in: faults)
    }

    /// The folders of every open instance's identifier (what a restart cleans).
    public func instanceFolders() -> [CacheFolder] {
        CacheTargetFiles.identifiers(caches.map(\.identifier)).map { folder(CacheFolder.names[$0]) }
    }

    /// Key `key`'s entry file as instance `cache` stored it, read without touching the cache.
    package func file(_ cache: Int, _ key: Int) -> CacheFile {
        CacheTargetFiles.file(caches[cache].storedEntry(for: CacheTargetKey(key)), key: key)
    }
}
