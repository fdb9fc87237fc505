#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value held in memory: its bytes and when it was written (expiry counts from the write).
public struct MemoryEntry: Sendable, Equatable {
    public var data: Data
    public var writtenAt: Date

    public init(data: Data, writtenAt: Date) {
        self.data = data
        self.writtenAt = writtenAt
    }
}

/// The memory tier seam. Every instance of one identifier in one `CacheEnvironment` shares one
/// tier, so a value set through one instance is what the others read.
public protocol MemoryTier: AnyObject, Sendable {
    func entry(for key: AnyHashable) -> MemoryEntry?
    func set(_ entry: MemoryEntry, for key: AnyHashable)
    func remove(_ key: AnyHashable)
}

#if canImport(FoundationEssentials)
/// Production's memory tier. Where Foundation comes as FoundationEssentials (Linux), which has no `NSCache`: what
/// swift-corelibs-foundation's `NSCache` with no cost or count limit is there, a store that evicts nothing by itself.
public final class NSCacheMemoryTier: MemoryTier, Sendable {
    private let entries = ManualMemoryTier()

    public init() {}

    public func entry(for key: AnyHashable) -> MemoryEntry? { entries.entry(for: key) }
    public func set(_ entry: MemoryEntry, for key: AnyHashable) { entries.set(entry, for: key) }
    public func remove(_ key: AnyHashable) { entries.remove(key) }
}
#else
/// Production's memory tier: an `NSCache`, which may evict entries under memory pressure.
public final class NSCacheMemoryTier: MemoryTier, @unchecked Sendable {
    private let cache = NSCache<KeyBox, EntryBox>()

    public init() {}

    public func entry(for key: AnyHashable) -> MemoryEntry? { cache.object(forKey: KeyBox(key))?.entry }
    public func set(_ entry: MemoryEntry, for key: AnyHashable) {
        cache.setObject(EntryBox(entry), forKey: KeyBox(key), cost: entry.data.count)
    }
    public func remove(_ key: AnyHashable) { cache.removeObject(forKey: KeyBox(key)) }

    /// An `NSCache` key wrapping any hashable key (NSCache needs objects).
    private final class KeyBox: NSObject, @unchecked Sendable {
        let key: AnyHashable
        init(_ key: AnyHashable) { self.key = key }
        override var hash: Int { key.hashValue }
        override func isEqual(_ object: Any?) -> Bool { (object as? KeyBox)?.key == key }
    }

    private final class EntryBox: @unchecked Sendable {
        let entry: MemoryEntry
        init(_ entry: MemoryEntry) { self.entry = entry }
    }
}
#endif

/// A memory tier that never evicts by itself: evictions are explicit calls (the harness's commands).
public final class ManualMemoryTier: MemoryTier, @unchecked Sendable {
    private let lock = Lock()
    private var entries: [AnyHashable: MemoryEntry] = [:]

    public init() {}

    public func entry(for key: AnyHashable) -> MemoryEntry? { lock.withLock { entries[key] } }
    public func set(_ entry: MemoryEntry, for key: AnyHashable) { lock.withLock { entries[key] = entry } }
    public func remove(_ key: AnyHashable) { lock.withLock { _ = entries.removeValue(forKey: key) } }

    /// Evicts one key, as memory pressure might.
    public func evict(_ key: AnyHashable) { remove(key) }
    /// Evicts everything.
    public func evictAll() { lock.withLock { entries.removeAll() } }
    /// How many entries are held.
    public var count: Int { lock.withLock { entries.count } }
}
