import CacheSpec
import Foundation
import GraphFuzzEngine
import PersistentCache

/// The production cache under test for one case: the cores of the open instances over one
/// environment (manual clock, manual memory tiers, a fault-injecting real or simulated file system).
/// (Public only because the machine names it as its `System`.)
public final class CacheSystem {
    let strategy: CacheStrategy
    let clock = ManualClock()
    let simulated: SimulatedFileSystem?
    let faults: FaultInjectingFileSystem
    let environment: CacheEnvironment
    let root: String
    let tiers: TierList
    private(set) var caches: [CacheCore<CacheTargetKey, Data>] = []
    private let bursts = BurstRunner()

    init(config: CacheConfig, strategy: CacheStrategy, keyIdentities: KeyIdentityCache, temporaryDirectory: String) throws {
        self.strategy = strategy
        let base: any CacheFileSystem
        if config.realFileSystem {
            simulated = nil
            let parent = temporaryDirectory.hasSuffix("/") ? temporaryDirectory : temporaryDirectory + "/"
            root = parent + "graphfuzz-cache-" + UUID().uuidString
            base = LocalFileSystem()
            // The harness's own folder for the case, made before any cache exists: not the cache's to answer for.
            do { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) } catch {
                throw HarnessFault("cannot create the real-disk case's scratch folder \(root)", underlying: error)
            }
        } else {
            let simulated = SimulatedFileSystem()
            self.simulated = simulated
            root = "/caches"
            base = simulated
        }
        faults = FaultInjectingFileSystem(base: base)
        let tiers = TierList()
        self.tiers = tiers
        environment = CacheEnvironment(cachesDirectory: root, fileSystem: faults, clock: clock,
                                       cleanupInterval: config.cleanupInterval, keyIdentities: keyIdentities,
                                       memoryTier: { tiers.make() })
        caches.append(open(.main))
        let first = caches[0]
        fileNames = (0..<CacheMachine.keyCount).map { key in
            let path = first.filePath(for: CacheTargetKey(key))
            return String(path[path.utf8.index(after: path.utf8.lastIndex(of: UInt8(ascii: "/"))!)...])
        }
    }

    /// The entry file name of each key (they depend only on the strategy).
    private var fileNames: [String] = []

    func open(_ identifier: CacheIdentifier) -> CacheCore<CacheTargetKey, Data> {
        CacheCore(identifier: identifier.rawValue, environment: environment, strategy: strategy)
    }

    func add(_ identifier: CacheIdentifier) { caches.append(open(identifier)) }

    /// A process restart: shutdown cleanups (if clean), memory gone, non-durable data gone, every instance reopened.
    func restart(clean: Bool) {
        if clean { caches.forEach { $0.shutDown() } }
        environment.dropMemoryTiers()
        tiers.removeAll()
        simulated?.powerLoss()
        faults.recover()
        faults.disarm()
        caches = caches.map { CacheCore(identifier: $0.identifier, environment: environment, strategy: strategy) }
    }

    func evict(_ key: Int?) {
        guard let key else { return tiers.evictAll() }
        tiers.evict(caches[0].memoryKey(for: CacheTargetKey(key)))
    }

    func folder(_ identifier: CacheIdentifier) -> String { environment.folder(for: identifier.rawValue) }

    func filePath(_ identifier: CacheIdentifier, _ key: Int) -> String {
        folder(identifier) + "/" + fileNames[key]
    }

    /// Files in the folder that are no key's entry file.
    func strayFiles(_ identifier: CacheIdentifier) -> Int { folderView(identifier.index).strays }

    /// The folder of identifier `index` as it is on disk.
    func folderView(_ index: Int) -> CacheFolder {
        CacheTargetFiles.folder(index, at: folder(CacheIdentifier(index: index)), names: fileNames, in: faults)
    }

    /// The folders of every open instance's identifier (what a restart cleans).
    func instanceFolders() -> [CacheFolder] { CacheTargetFiles.identifiers(caches.map(\.identifier)).map(folderView) }

    /// A burst of concurrent sets and gets of one key through a fresh `MemoryCache` actor.
    func burst(key: Int, values: [CacheValueSpec], final: CacheValueSpec) -> CacheObservation {
        let environment = self.environment, strategy = self.strategy
        let cacheKey = CacheTargetKey(key)
        let (gets, after) = bursts.run { () async -> ([Data?], Data?) in
            let cache = MemoryCache<CacheTargetKey, Data>(identifier: CacheIdentifier.main.rawValue, environment: environment, strategy: strategy)
            await cache.set(CacheTargetValue.bytes(values[0], key: key), for: cacheKey)
            let gets = await withTaskGroup(of: Data??.self) { group in
                for value in values.dropFirst() {
                    group.addTask { await cache.set(CacheTargetValue.bytes(value, key: key), for: cacheKey); return .none }
                    group.addTask { .some(await cache.value(for: cacheKey)) }
                }
                var gets: [Data?] = []
                for await result in group { if case .some(let get) = result { gets.append(get) } }
                return gets
            }
            let after = await cache.value(for: cacheKey)
            await cache.set(CacheTargetValue.bytes(final, key: key), for: cacheKey)
            await cache.shutDown()
            return (gets, after)
        }
        let allowed = gets.allSatisfy { CacheTargetValue.isOne(of: values, $0, key: key) }
        let folder = folderView(CacheIdentifier.main.index)
        guard case .value(let spec) = CacheTargetValue.observe(after, key: key) else { return .burst(allGetsAllowed: allowed, after: nil, folder: folder) }
        return .burst(allGetsAllowed: allowed, after: spec, folder: folder)
    }

    /// Removes the temporary folder of a real-file-system case.
    func tearDown() {
        guard simulated == nil else { return }
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// Every memory tier the environment made, so that evictions reach all of them.
final class TierList: @unchecked Sendable {
    private let lock = NSLock()
    private var tiers: [ManualMemoryTier] = []

    func make() -> any MemoryTier {
        let tier = ManualMemoryTier()
        lock.withLock { tiers.append(tier) }
        return tier
    }

    func evict(_ key: AnyHashable) { lock.withLock { tiers }.forEach { $0.evict(key) } }
    func evictAll() { lock.withLock { tiers }.forEach { $0.evictAll() } }
    func removeAll() { lock.withLock { tiers.removeAll() } }
}
