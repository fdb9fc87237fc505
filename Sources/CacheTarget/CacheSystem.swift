import CacheSpec
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import PersistentCache
import Synchronization

/// The production cache under test for one case: the cores of the open instances over one
/// environment (manual clock, manual memory tiers, a fault-injecting real or simulated file system).
/// (Public only because the machine names it as its `System`.)
///
/// Unchecked `Sendable`: concurrent steps share it between tasks, but every job of a case, theirs included, runs on
/// the thread that drives the case, one at a time (the case's scheduler), and no step overlaps a concurrent one.
public final class CacheSystem: @unchecked Sendable {
    let strategy: CacheStrategy
    let clock = ManualClock()
    let simulated: SimulatedFileSystem?
    let faults: FaultInjectingFileSystem
    let environment: CacheEnvironment
    let root: String
    let tiers: TierList
    private(set) var caches: [CacheCore<CacheTargetKey, Data>] = []
    /// The `MemoryCache` actor over each instance's core (the actor's steps).
    private(set) var actors: [MemoryCache<CacheTargetKey, Data>] = []

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
        actors = caches.map { MemoryCache(sharing: SharedCore($0)) }
        let first = caches[0]
        fileNames = (0..<CacheMachine.keyCount).map { key in
            let path = first.filePath(for: CacheTargetKey(key))
            return String(path[path.utf8.index(after: path.utf8.lastIndex(of: UInt8(ascii: "/"))!)...])
        }
        folders = CacheIdentifier.allCases.map { environment.folder(for: $0.rawValue) }
        filePaths = folders.map { folder in fileNames.map { folder + "/" + $0 } }
    }

    /// The entry file name of each key (they depend only on the strategy).
    private var fileNames: [String] = []
    /// Each identifier's folder, and the path of each key's entry file in it, by identifier index: made once per case.
    private var folders: [String] = []
    private var filePaths: [[String]] = []

    func open(_ identifier: CacheIdentifier) -> CacheCore<CacheTargetKey, Data> {
        CacheCore(identifier: identifier.rawValue, environment: environment, strategy: strategy)
    }

    func add(_ identifier: CacheIdentifier) {
        caches.append(open(identifier))
        actors.append(MemoryCache(sharing: SharedCore(caches[caches.count - 1])))
    }

    /// A process restart: shutdown cleanups (if clean), memory gone, non-durable data gone, every instance reopened.
    func restart(clean: Bool) {
        if clean { caches.forEach { $0.shutDown() } }
        environment.dropMemoryTiers()
        tiers.removeAll()
        simulated?.powerLoss()
        faults.recover()
        faults.disarm()
        caches = caches.map { CacheCore(identifier: $0.identifier, environment: environment, strategy: strategy) }
        actors = caches.map { MemoryCache(sharing: SharedCore($0)) }
    }

    func evict(_ key: Int?) {
        guard let key else { return tiers.evictAll() }
        tiers.evict(caches[0].memoryKey(for: CacheTargetKey(key)))
    }

    func folder(_ identifier: CacheIdentifier) -> String { folders[identifier.index] }

    func filePath(_ identifier: CacheIdentifier, _ key: Int) -> String { filePaths[identifier.index][key] }

    /// Files in the folder that are no key's entry file.
    func strayFiles(_ identifier: CacheIdentifier) -> Int { folderView(identifier.index).strays }

    /// The folder of identifier `index` as it is on disk.
    func folderView(_ index: Int) -> CacheFolder {
        CacheTargetFiles.folder(index, at: folder(CacheIdentifier(index: index)), names: fileNames, in: faults)
    }

    /// The folders of every open instance's identifier (what a restart cleans).
    func instanceFolders() -> [CacheFolder] { CacheTargetFiles.identifiers(caches.map(\.identifier)).map(folderView) }

    /// Performs a get or a set through the instance's actor (a concurrent step's branch), observing it on the actor in
    /// the same job as the call returns, as the synchronous steps observe theirs: no other call runs in between.
    func performOnActor(_ command: CacheCommand) async throws -> CacheObservation {
        let observed: CacheObservation
        switch command {
        case .actorGet(let cache, let key):
            observed = await get(on: actors[cache.index], key: key, identifier: CacheIdentifier(rawValue: caches[cache.index].identifier) ?? .main)
        case .actorSet(let cache, let key, let value):
            observed = await set(on: actors[cache.index], key: key, value: value, identifier: CacheTargetFiles.index(of: caches[cache.index].identifier))
        default:
            throw HarnessFault("\(command.trace) is no step of the actor")
        }
        if let failure = faults.takeEnvironmentFailure() {
            throw HarnessFault("the real file system failed on its own during the step (no injected fault): \(failure)")
        }
        return observed
    }

    private func get(on cache: isolated MemoryCache<CacheTargetKey, Data>, key: Int, identifier: CacheIdentifier) async -> CacheObservation {
        let value = await cache.value(for: CacheTargetKey(key))
        return CacheTargetValue.observeRead(value, key: key) { faults.fileExists(at: filePath(identifier, key)) }
    }

    private func set(on cache: isolated MemoryCache<CacheTargetKey, Data>, key: Int, value: CacheValueSpec, identifier: Int) -> CacheObservation {
        cache.set(CacheTargetValue.bytes(value, key: key), for: CacheTargetKey(key))
        return .folders([folderView(identifier)])
    }

    /// Removes the temporary folder of a real-file-system case.
    func tearDown() {
        guard simulated == nil else { return }
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// Every memory tier the environment made, so that evictions reach all of them.
final class TierList: Sendable {
    private let tiers = Mutex<[ManualMemoryTier]>([])

    func make() -> any MemoryTier {
        let tier = ManualMemoryTier()
        tiers.withLock { $0.append(tier) }
        return tier
    }

    func evict(_ key: AnyHashable) { tiers.withLock { $0 }.forEach { $0.evict(key) } }
    func evictAll() { tiers.withLock { $0 }.forEach { $0.evictAll() } }
    func removeAll() { tiers.withLock { $0.removeAll() } }
}
