#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Everything a cache instance depends on: where its folders live, the file system, the clock,
/// the logger, the expiry, and the memory tiers shared per identifier.
///
/// Create one environment per process (the app's composition root) and pass it to every cache:
/// instances that share an identifier *and* an environment share one memory tier, so none of them
/// can return a value another has since replaced. There is deliberately no global default.
public final class CacheEnvironment: Sendable {
    /// The folder holding one `DiskCache-<identifier>` folder per identifier.
    public let cachesDirectory: String
    public let fileSystem: any CacheFileSystem
    public let clock: any CacheClock
    public let logger: any CacheLogger
    /// How long a value lives after it was written (one hour by default).
    public let expiry: TimeInterval
    /// A cleanup runs after every this many writes of one instance (100 by default).
    public let cleanupInterval: Int

    private let makeMemoryTier: @Sendable () -> any MemoryTier
    /// The memory tier of each identifier, and how many instances were numbered.
    private let state = Mutex<(tiers: [String: any MemoryTier], instances: Int)>(([:], 0))
    /// Key identities computed by any instance (reflection and hashing are not cheap).
    public let keyIdentities: KeyIdentityCache

    public init(cachesDirectory: String, fileSystem: any CacheFileSystem = LocalFileSystem(),
                clock: any CacheClock = SystemClock(), logger: any CacheLogger = DiscardingLogger(),
                expiry: TimeInterval = 3600, cleanupInterval: Int = 100,
                keyIdentities: KeyIdentityCache = KeyIdentityCache(),
                memoryTier: @escaping @Sendable () -> any MemoryTier = { NSCacheMemoryTier() }) {
        self.keyIdentities = keyIdentities
        self.cachesDirectory = cachesDirectory
        self.fileSystem = fileSystem
        self.clock = clock
        self.logger = logger
        self.expiry = expiry
        self.cleanupInterval = Swift.max(1, cleanupInterval)
        self.makeMemoryTier = memoryTier
    }

    /// An environment over the user's caches directory, the real file system and the system clock.
    public static func standard(logger: any CacheLogger = DiscardingLogger()) -> CacheEnvironment {
        // The fallback is the temporary directory as `NSTemporaryDirectory()` gives it ($TMPDIR, else /tmp, with a
        // trailing slash).
        let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.path
            ?? FileManager.default.temporaryDirectory.path + "/"
        return CacheEnvironment(cachesDirectory: directory, logger: logger)
    }

    /// The folder of `identifier`.
    public func folder(for identifier: String) -> String { cachesDirectory + "/DiskCache-" + identifier }

    /// The memory tier every instance of `identifier` shares.
    public func sharedMemoryTier(for identifier: String) -> any MemoryTier {
        state.withLock { state in
            if let tier = state.tiers[identifier] { return tier }
            let tier = makeMemoryTier()
            state.tiers[identifier] = tier
            return tier
        }
    }

    /// A memory tier of its own (the seed's per-instance memory).
    public func privateMemoryTier() -> any MemoryTier { makeMemoryTier() }

    /// Forgets every memory tier (a process restart: memory does not survive).
    public func dropMemoryTiers() { state.withLock { $0.tiers.removeAll() } }

    /// The record of `key` under `identity`, computed once per identity cache.
    func keyRecord<Key: Hashable & CustomStringConvertible & Sendable>(_ key: Key, identity: KeyIdentity) -> KeyRecord {
        keyIdentities.record(key, identity: identity)
    }

    /// A number unique among this environment's instances (names temporary files).
    func nextInstanceNumber() -> Int {
        state.withLock { state in
            state.instances += 1
            return state.instances
        }
    }
}

/// Remembers the identities (memory key, encoded key, file name) computed for keys, so reflection and
/// hashing run once per key. Each environment makes its own unless one is passed in; environments
/// may share one (the identities depend only on the key and the strategy). Bounded.
public final class KeyIdentityCache: @unchecked Sendable {
    private let lock = Lock()
    private var records: [KeyRecordID: KeyRecord] = [:]
    private let capacity: Int

    public init(capacity: Int = 4096) { self.capacity = Swift.max(1, capacity) }

    func record<Key: Hashable & CustomStringConvertible & Sendable>(_ key: Key, identity: KeyIdentity) -> KeyRecord {
        let id = KeyRecordID(key: AnyHashable(key), identity: identity)
        if let record = lock.withLock({ records[id] }) { return record }
        let record = KeyEncoder.record(key, identity: identity)
        lock.withLock {
            if records.count >= capacity { records.removeAll(keepingCapacity: true) }
            records[id] = record
        }
        return record
    }
}
