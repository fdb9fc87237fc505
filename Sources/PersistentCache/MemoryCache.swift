#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// Over a core its caller also steps directly (a harness), never at the same time as the actor.
    package init(sharing core: SharedCore<Key, Value>) {
        self.core = core.core
    }

    /// The cached value for `key`, from memory or else from disk (then kept in memory). The whole read runs on
    /// the actor without suspending, so no set can run between reading the disk and promoting what it held.
    public func value(for key: Key) async -> Value? {
        guard core.strategy.contains(.reentrantRead) else { return core.value(for: key) }
        switch core.memoryLookup(key) {
        case .hit(let value):
            return value
        case .miss(let read):
            let bytes = await Self.readFile(read)
            return core.diskValue(read, bytes: bytes)
        }
    }

    /// The seed's disk read, off the actor, in chunks (`for try await chunk in fileHandle.bytes`), suspending after
    /// each: the actor runs other calls meanwhile. The file is opened first, so a rename over it during the read
    /// does not change what is read.
    @concurrent
    private nonisolated static func readFile(_ read: CacheCore<Key, Value>.DiskRead) async -> Result<Data, FileSystemError> {
        let opened: Data
        do { opened = try read.fileSystem.read(read.path) } catch { return .failure(error) }
        var contents = Data()
        var offset = opened.startIndex
        repeat {
            let end = opened.index(offset, offsetBy: readChunkSize, limitedBy: opened.endIndex) ?? opened.endIndex
            contents.append(opened[offset..<end])
            offset = end
            await Task.yield()
        } while offset < opened.endIndex
        return .success(contents)
    }

    /// The seed's read buffer, in bytes.
    private static var readChunkSize: Int { 128 }

    /// Stores `value` for `key` in memory and on disk.
    public func set(_ value: Value, for key: Key) { core.set(value, for: key) }

    /// Whether memory holds `key`; never reads the disk.
    public func contains(_ key: Key) -> Bool { core.contains(key) }

    /// Removes expired and stray files now.
    public func cleanUp() { core.cleanUp() }

    /// The cleanup at shutdown; call it when the cache is no longer needed.
    public func shutDown() { core.shutDown() }
}

/// A core handed to a `MemoryCache` by a harness that also steps it directly, one at a time (never
/// concurrently with the actor): for this package's targets only.
package struct SharedCore<Key: Hashable & CustomStringConvertible & Sendable, Value: CachedValue>: @unchecked Sendable {
    let core: CacheCore<Key, Value>

    package init(_ core: CacheCore<Key, Value>) { self.core = core }
}
