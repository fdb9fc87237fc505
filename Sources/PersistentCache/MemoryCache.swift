import Foundation

/// A two-tier cache: memory first, then a folder on disk shared by every instance of one
/// identifier. Values expire an hour (the environment's `expiry`) after they were written.
/// Nothing it does throws: disk faults are logged and the memory tier keeps working.
public actor MemoryCache<Key: Hashable & CustomStringConvertible & Sendable, Value: CachedValue> {
    private let core: CacheCore<Key, Value>

    /// Opens the cache of `identifier`. Instances that share an identifier and `environment` share
    /// their memory tier and disk folder.
    public init(identifier: String, environment: CacheEnvironment) {
        core = CacheCore(identifier: identifier, environment: environment)
    }

    /// With faults (a mutant): for this package's targets and tests only.
    package init(identifier: String, environment: CacheEnvironment, strategy: CacheStrategy) {
        core = CacheCore(identifier: identifier, environment: environment, strategy: strategy)
    }

    /// The cached value for `key`, from memory or else from disk (then kept in memory).
    public func value(for key: Key) -> Value? { core.value(for: key) }

    /// Stores `value` for `key` in memory and on disk.
    public func set(_ value: Value, for key: Key) { core.set(value, for: key) }

    /// Whether memory holds `key`; never reads the disk.
    public func contains(_ key: Key) -> Bool { core.contains(key) }

    /// Removes expired and stray files now.
    public func cleanUp() { core.cleanUp() }

    /// The cleanup at shutdown; call it when the cache is no longer needed.
    public func shutDown() { core.shutDown() }
}
