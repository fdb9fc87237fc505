package import FaultPoints
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cache's logic, synchronous: memory first, then disk (promoting disk hits), writes through
/// to disk atomically, expiry on every read, cleanup at start, at shutdown and every
/// `cleanupInterval` writes. Disk errors are logged and never surface.
///
/// `MemoryCache` wraps one core in an actor; a test harness may step a core directly. A core is
/// not thread-safe on its own.
public final class CacheCore<Key: Hashable & CustomStringConvertible & Sendable, Value: CachedValue> {
    public let identifier: String
    /// This identifier's folder.
    public let folder: String
    package let strategy: CacheStrategy
    private let environment: CacheEnvironment
    private let fileSystem: any CacheFileSystem
    private let memory: any MemoryTier
    private let instance: Int
    /// Writes through this instance since it was made.
    public private(set) var writes = 0
    private var records: [Key: KeyFile] = [:]
    private static var maxRecords: Int { 4096 }

    /// Opens the cache of `identifier` in `environment` (creating its folder) and cleans it up.
    public convenience init(identifier: String, environment: CacheEnvironment) {
        self.init(identifier: identifier, environment: environment, strategy: .shipped)
    }

    /// With faults (a mutant): for this package's targets and tests only.
    package init(identifier: String, environment: CacheEnvironment, strategy: CacheStrategy) {
        self.identifier = identifier
        self.environment = environment
        self.strategy = strategy
        self.fileSystem = environment.fileSystem
        self.folder = environment.folder(for: identifier)
        self.instance = environment.nextInstanceNumber()
        memory = strategy.contains(.perInstanceMemory) ? environment.privateMemoryTier() : environment.sharedMemoryTier(for: identifier)
        do {
            try fileSystem.createFolder(at: folder)
        } catch {
            environment.logger.log(.error, "cache \(identifier): cannot create its folder: \(error)")
        }
        cleanUp()
    }

    /// The identity under which the memory tier holds `key`'s entry (for custom memory tiers that
    /// evict selectively).
    public func memoryKey(for key: Key) -> AnyHashable { keyFile(for: key).record.memoryKey }

    /// The path of the file that holds `key`'s entry.
    public func filePath(for key: Key) -> String { keyFile(for: key).path }

    /// What `key`'s entry file holds, read without touching the cache (nothing promoted, nothing deleted): for a
    /// harness that checks the file a crash left.
    package func storedEntry(for key: Key) -> StoredEntry {
        let keyFile = keyFile(for: key)
        guard let bytes = try? fileSystem.read(keyFile.path) else { return .none }
        switch CacheFileFormat.decode(bytes, key: keyFile.record.encoded) {
        case .entry(let payload, _): return .entry(payload)
        case .otherKey: return .otherKey
        case .corrupt: return .corrupt
        }
    }

    /// The value last set for `key` through any instance of this identifier, if it has not expired
    /// and is still held in memory or intact on disk.
    public func value(for key: Key) -> Value? {
        switch memoryLookup(key) {
        case .hit(let value): return value
        case .miss(let read): return diskValue(read)
        }
    }

    /// A read that missed memory: the entry's file to read, and the time the read began.
    package struct DiskRead: Sendable {
        fileprivate let record: KeyRecord
        fileprivate let now: Date
        /// The file holding the entry, and where it lives.
        package let path: String
        package let fileSystem: any CacheFileSystem
    }

    /// The first half of a read: memory's unexpired value, else the disk read still to do.
    package enum MemoryLookup {
        case hit(Value)
        case miss(DiskRead)
    }

    /// Looks `key` up in memory, dropping an expired or undecodable entry.
    package func memoryLookup(_ key: Key) -> MemoryLookup {
        let now = environment.clock.now()
        let keyFile = keyFile(for: key)
        if let entry = memory.entry(for: keyFile.record.memoryKey) {
            if !isExpired(entry.writtenAt, now: now), let value = try? Value.fromData(data: entry.data) {
                return .hit(value)
            }
            memory.remove(keyFile.record.memoryKey)
        }
        return .miss(DiskRead(record: keyFile.record, now: now, path: keyFile.path, fileSystem: fileSystem))
    }

    /// The second half of a read, given what reading `read.path` gave: the value, promoted to memory.
    package func diskValue(_ read: DiskRead, bytes: Result<Data, FileSystemError>) -> Value? {
        decodeDisk(bytes, read.record, path: read.path, now: read.now)
    }

    /// Stores `value` for `key` in memory and writes it through to disk.
    public func set(_ value: Value, for key: Key) {
        let now = environment.clock.now()
        let keyFile = keyFile(for: key)
        let payload = value.data
        memory.set(MemoryEntry(data: payload, writtenAt: now), for: keyFile.record.memoryKey)
        write(CacheFileFormat.encode(payload: payload, key: keyFile.record.encoded, writtenAt: now), keyFile, now: now)
        writes += 1
        if writes % environment.cleanupInterval == 0 { cleanUp() }
    }

    /// Whether the memory tier holds an unexpired value for `key`. Never reads the disk.
    public func contains(_ key: Key) -> Bool {
        let keyFile = keyFile(for: key)
        if let entry = memory.entry(for: keyFile.record.memoryKey), !isExpired(entry.writtenAt, now: environment.clock.now()) {
            return true
        }
        return strategy.contains(.containsReadsDisk) && fileSystem.fileExists(at: keyFile.path)
    }

    /// Deletes expired entries and files no key names (temporary files left by a crash).
    public func cleanUp() {
        let now = environment.clock.now()
        let files: [(name: String, modified: Date)]
        do {
            files = try fileSystem.list(folder)
        } catch {
            environment.logger.log(.error, "cache \(identifier): cleanup cannot list its folder: \(error)")
            return
        }
        var removed = 0
        for file in files {
            let delete = strategy.contains(.cleanupDeletesEverything)
                || !CacheCore.isEntryName(file.name) || isExpired(file.modified, now: now)
            guard delete else { continue }
            do {
                try fileSystem.remove(folder + "/" + file.name)
                removed += 1
            } catch {
                environment.logger.log(.error, "cache \(identifier): cleanup cannot remove \(file.name): \(error)")
            }
        }
        environment.logger.log(.debug, "cache \(identifier): cleanup removed \(removed) of \(files.count) files")
    }

    /// The cleanup at shutdown. The seed ran it from `deinit`; an explicit call keeps file I/O out
    /// of deinitialisers, whose timing nobody controls.
    public func shutDown() { cleanUp() }

    // MARK: Disk

    private func diskValue(_ read: DiskRead) -> Value? {
        decodeDisk(Result { () throws(FileSystemError) in try fileSystem.read(read.path) }, read.record, path: read.path, now: read.now)
    }

    private func decodeDisk(_ read: Result<Data, FileSystemError>, _ record: KeyRecord, path: String, now: Date) -> Value? {
        let bytes: Data
        do {
            bytes = try read.get()
        } catch {
            if error.reason != .notFound && error.reason != .folderMissing {
                environment.logger.log(.error, "cache \(identifier): read failed: \(error)")
            }
            return nil
        }
        switch CacheFileFormat.decode(bytes, key: record.encoded) {
        case .corrupt(let reason):
            environment.logger.log(.error, "cache \(identifier): corrupt entry \(record.fileName): \(reason)")
            discardCorrupt(path)
            return nil
        case .otherKey:
            return nil
        case .entry(let payload, let writtenAt):
            if isExpired(writtenAt, now: now) {
                try? fileSystem.remove(path)
                return nil
            }
            guard let value = try? Value.fromData(data: payload) else {
                environment.logger.log(.error, "cache \(identifier): entry \(record.fileName) does not decode as \(Value.self)")
                discardCorrupt(path)
                return nil
            }
            memory.set(MemoryEntry(data: payload, writtenAt: writtenAt), for: record.memoryKey)
            return value
        }
    }

    private func discardCorrupt(_ path: String) {
        guard !strategy.contains(.keepCorruptFiles) else { return }
        do {
            try fileSystem.remove(path)
        } catch {
            environment.logger.log(.error, "cache \(identifier): cannot remove corrupt entry: \(error)")
        }
    }

    private func write(_ file: Data, _ keyFile: KeyFile, now: Date) {
        let path = keyFile.path
        do {
            try attemptWrite(file, path: path, name: keyFile.record.fileName, now: now)
        } catch {
            if error.reason == .folderMissing, (try? fileSystem.createFolder(at: folder)) != nil,
               (try? attemptWrite(file, path: path, name: keyFile.record.fileName, now: now)) != nil {
                environment.logger.log(.info, "cache \(identifier): recreated its missing folder")
                return
            }
            environment.logger.log(.error, "cache \(identifier): write failed, dropping the older disk copy: \(error)")
            // The disk copy is now older than the memory tier: remove it so no read falls back to it.
            try? fileSystem.remove(path)
        }
    }

    private func attemptWrite(_ file: Data, path: String, name: String, now: Date) throws(FileSystemError) {
        if strategy.contains(.inPlaceWrite) {
            try fileSystem.write(file, to: path, modified: now)
            try fileSystem.synchronize(path)
            return
        }
        // One interpolation (one buffer): a chain of `+` reallocates the path at every piece.
        let temporary = "\(folder)/.\(name).\(instance)-\(writes).tmp"
        do {
            try fileSystem.write(file, to: temporary, modified: now)
            try fileSystem.synchronize(temporary)
            try fileSystem.rename(temporary, to: path)
        } catch {
            try? fileSystem.remove(temporary)
            throw error
        }
    }

    // MARK: Helpers

    private func isExpired(_ writtenAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(writtenAt) >= environment.expiry
    }

    /// How keys are told apart: by type and structure (shipped), or by description alone.
    private var keyIdentity: KeyIdentity { strategy.contains(.descriptionOnlyKeys) ? .descriptionOnly : .typeAndStructure }

    /// A key's record and the path of its entry file in this instance's folder, made once per key.
    private struct KeyFile {
        let record: KeyRecord
        let path: String
    }

    private func keyFile(for key: Key) -> KeyFile {
        if let keyFile = records[key] { return keyFile }
        let record = environment.keyRecord(key, identity: keyIdentity)
        let keyFile = KeyFile(record: record, path: folder + "/" + record.fileName)
        if records.count >= CacheCore.maxRecords { records.removeAll(keepingCapacity: true) }
        records[key] = keyFile
        return keyFile
    }

    /// Whether `name` is an entry's file name: 64 lowercase hex digits.
    static func isEntryName(_ name: String) -> Bool {
        let utf8 = name.utf8
        return utf8.count == 64 && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// An entry file as `CacheCore.storedEntry(for:)` reads it.
package enum StoredEntry: Equatable {
    case none
    /// An intact entry of the key: its value's bytes.
    case entry(Data)
    /// An intact entry written for another key.
    case otherKey
    /// A file that fails its checksum or does not decode.
    case corrupt
}

/// The cache's design, as the tag of its faults (`CacheCore` is generic, so it cannot be the tag).
package enum CacheDesign {}

/// The faults a cache runs with: the seed's weaker choices, each a `Fault<CacheDesign>` declared beside its
/// branch. Production: `.shipped`.
package typealias CacheStrategy = Faults<CacheDesign>

extension Fault<CacheDesign> {
    /// Mutant `seed-torn-write`: entries are overwritten in place, as the seed does: a torn write leaves a prefix
    /// (shipped: a temporary file made durable, then renamed over the entry).
    package static var inPlaceWrite: Self { Self() }
    /// Mutant `seed-separate-memory`: each instance has its own memory tier, as the seed does (shipped: every
    /// instance of one identifier in one environment shares one).
    package static var perInstanceMemory: Self { Self() }
    /// Mutant `keep-corrupt-file`: a file that fails its checksum or does not decode stays on disk.
    package static var keepCorruptFiles: Self { Self() }
    /// Mutant `cleanup-deletes-fresh`: a cleanup removes every file (shipped: expired entries and stray files).
    package static var cleanupDeletesEverything: Self { Self() }
    /// Mutant `contains-reads-disk`: `contains` falls back to the disk when memory misses (shipped: memory only).
    package static var containsReadsDisk: Self { Self() }
    /// Mutant `cache-reentrant-read`: the actor awaits a memory miss's disk read, as the seed does, and promotes
    /// what it read when it resumes, after sets that ran meanwhile (shipped: a read runs on the actor to the end).
    package static var reentrantRead: Self { Self() }
}
