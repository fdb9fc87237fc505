import GraphFuzzEngine

/// The specification's state of the cache: the clock, the instances, the memory tier of each
/// identifier (shared by its instances) and the files of each identifier's folder.
///
/// Keys are small integers; key `k` and key `k ^ 1` have equal descriptions but are different keys.
/// Every operation returns what the cache must observe and the rule that decides it; none returns
/// alternatives except the concurrent burst, whose interleaving is genuinely free.
public struct CacheModel: Sendable {
    /// A value in memory with its write time.
    public struct Held: Sendable, Equatable {
        public var value: CacheValueSpec
        public var writtenAt: Int
        /// The instance whose set or disk read put it there (-1: a burst's own instance).
        public var by: Int
    }

    /// An entry file on disk.
    public struct File: Sendable, Equatable {
        public var value: CacheValueSpec
        public var writtenAt: Int
        /// A bit was flipped: the file no longer decodes.
        public var corrupt: Bool
    }

    public static let expiry = 3600
    public let keyCount: Int
    public let identifierCount: Int
    /// A cleanup runs after every this many writes of one instance.
    public let cleanupInterval: Int

    /// Seconds since the case started.
    public private(set) var now = 0
    /// The identifier index of each instance; instance 0 (`v1`) always exists.
    public private(set) var instances: [Int] = [0]
    /// Writes through each instance since it was opened.
    public private(set) var writes: [Int] = [0]
    /// memory[identifier][key]
    public private(set) var memory: [[Held?]]
    /// disk[identifier][key]
    public private(set) var disk: [[File?]]
    /// The rule that last decided whether disk[identifier][key] exists (reported when it is checked).
    public private(set) var fileRule: [[String]]
    /// The rule that decides the folder's stray files now: C8 after a failed write (its temporary file must be gone),
    /// C9 once a cleanup ran.
    public private(set) var strayRule: [String]
    /// The tag the next generated value takes (1...255, wrapping).
    public private(set) var nextTag = 1
    /// The identifier and key the last set, get or flip touched (generation checks it more often).
    public private(set) var touched: (identifier: Int, key: Int) = (0, 0)

    public init(keyCount: Int = 4, identifierCount: Int = 2, cleanupInterval: Int = 100) {
        self.keyCount = keyCount
        self.identifierCount = identifierCount
        self.cleanupInterval = cleanupInterval
        memory = Array(repeating: Array(repeating: nil, count: keyCount), count: identifierCount)
        disk = Array(repeating: Array(repeating: nil, count: keyCount), count: identifierCount)
        fileRule = Array(repeating: Array(repeating: CacheRules.lastValueRead, count: keyCount), count: identifierCount)
        strayRule = Array(repeating: CacheRules.cleanupExact, count: identifierCount)
    }

    /// The key whose description equals `key`'s.
    public static func twin(of key: Int) -> Int { key ^ 1 }

    public func isExpired(_ writtenAt: Int) -> Bool { now - writtenAt >= CacheModel.expiry }

    /// Takes `count` fresh tags.
    public mutating func takeTags(_ count: Int) -> Int {
        let first = nextTag
        nextTag = (nextTag - 1 + count) % 255 + 1
        return first
    }

    // MARK: Commands

    /// A set that reaches the disk (C1, C3), and the periodic cleanup it may trigger (C9).
    public mutating func set(instance: Int, key: Int, value: CacheValueSpec) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        memory[identifier][key] = Held(value: value, writtenAt: now, by: instance)
        disk[identifier][key] = File(value: value, writtenAt: now, corrupt: false)
        fileRule[identifier][key] = CacheRules.diskReadBack
        touched = (identifier, key)
        countWrite(instance)
        return Prediction(.done, rule: CacheRules.lastValueRead)
    }

    /// A set whose write fails without a crash (failed write, full disk before or during the file, a partial write, a
    /// failed fsync, a failed rename): memory keeps the value, the older disk copy goes, no temporary file stays (C8).
    public mutating func failedSet(instance: Int, key: Int, value: CacheValueSpec) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        strayRule[identifier] = CacheRules.diskFaultsHidden
        memory[identifier][key] = Held(value: value, writtenAt: now, by: instance)
        disk[identifier][key] = nil
        fileRule[identifier][key] = CacheRules.diskFaultsHidden
        touched = (identifier, key)
        countWrite(instance)
        return Prediction(.done, rule: CacheRules.diskFaultsHidden)
    }

    /// A set during which the process crashes (torn write, crash between write and rename), then
    /// the restart: the crash interrupts the set (a write has a separate commit point, the rename) and the key's
    /// file holds what it held before (C5), which the restart's cleanup keeps unless it expired (C9).
    public mutating func crashingSet(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        _ = restart(clean: false)
        fileRule[identifier][key] = CacheRules.atomicWrites
        touched = (identifier, key)
        return Prediction(.crashed(interrupted: true, fileKept: disk[identifier][key] != nil), rule: CacheRules.atomicWrites,
                          alsoDecided: [CacheRules.cleanupExact])
    }

    private mutating func countWrite(_ instance: Int) {
        writes[instance] += 1
        if writes[instance] % cleanupInterval == 0 { cleanUp(identifier: instances[instance]) }
    }

    /// A read: memory (C1), else disk (C3), never expired (C4) or corrupt (C6) values.
    public mutating func get(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        touched = (identifier, key)
        if let held = memory[identifier][key] {
            if !isExpired(held.writtenAt) { return Prediction(.value(held.value), rule: CacheRules.lastValueRead) }
            memory[identifier][key] = nil
            if let file = disk[identifier][key] {
                // The read goes on to the file: a corrupt one is deleted for failing its checksum (C6: its write
                // time cannot be read), an intact one for being expired (C4).
                disk[identifier][key] = nil
                if file.corrupt {
                    fileRule[identifier][key] = CacheRules.corruptFileDeleted
                    return Prediction(.value(nil), rule: CacheRules.corruptFileDeleted, alsoDecided: [CacheRules.expiredNeverReturned])
                }
                fileRule[identifier][key] = CacheRules.expiredNeverReturned
            }
            return Prediction(.value(nil), rule: CacheRules.expiredNeverReturned)
        }
        if let file = disk[identifier][key] {
            let rule = fileRule[identifier][key]
            if file.corrupt {
                disk[identifier][key] = nil
                fileRule[identifier][key] = CacheRules.corruptFileDeleted
                return Prediction(.value(nil), rule: CacheRules.corruptFileDeleted)
            }
            if isExpired(file.writtenAt) {
                disk[identifier][key] = nil
                fileRule[identifier][key] = CacheRules.expiredNeverReturned
                return Prediction(.value(nil), rule: CacheRules.expiredNeverReturned)
            }
            memory[identifier][key] = Held(value: file.value, writtenAt: file.writtenAt, by: instance)
            return Prediction(.value(file.value), rule: rule)
        }
        let twin = CacheModel.twin(of: key)
        if twin < keyCount, memory[identifier][twin] != nil || disk[identifier][twin] != nil {
            return Prediction(.value(nil), rule: CacheRules.keyIdentity)
        }
        return Prediction(.value(nil), rule: fileRule[identifier][key])
    }

    /// contains: memory only (C7); a value another instance put in the shared memory counts (C1). A miss while the
    /// twin key (equal description) has a value in memory and the key has no file is key identity's (C2): only
    /// the twin's value could make it true.
    public func contains(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        guard let held = memory[identifier][key], !isExpired(held.writtenAt) else {
            let twin = CacheModel.twin(of: key)
            if twin < keyCount, let other = memory[identifier][twin], !isExpired(other.writtenAt), disk[identifier][key] == nil {
                return Prediction(.flag(false), rule: CacheRules.keyIdentity, alsoDecided: [CacheRules.containsMemoryOnly])
            }
            return Prediction(.flag(false), rule: CacheRules.containsMemoryOnly)
        }
        return Prediction(.flag(true), rule: held.by == instance ? CacheRules.containsMemoryOnly : CacheRules.lastValueRead)
    }

    public mutating func advance(seconds: Int) -> Prediction<CacheObservation> {
        now += seconds
        return Prediction(.done, rule: CacheRules.expiredNeverReturned)
    }

    /// Memory pressure evicts `key` (nil: everything) from every memory tier.
    public mutating func evict(key: Int?) -> Prediction<CacheObservation> {
        for identifier in 0..<identifierCount {
            for slot in 0..<keyCount where key == nil || key == slot { memory[identifier][slot] = nil }
        }
        return Prediction(.done, rule: CacheRules.diskReadBack)
    }

    /// Another instance opens (its start-up cleanup runs, C9).
    public mutating func open(identifier: Int) -> Prediction<CacheObservation> {
        instances.append(identifier)
        writes.append(0)
        cleanUp(identifier: identifier)
        return Prediction(.done, rule: CacheRules.cleanupExact)
    }

    /// The identifier's folder vanishes with every file in it; memory stays (C8).
    public mutating func removeFolder(identifier: Int) -> Prediction<CacheObservation> {
        for key in 0..<keyCount where disk[identifier][key] != nil {
            disk[identifier][key] = nil
            fileRule[identifier][key] = CacheRules.diskFaultsHidden
        }
        return Prediction(.done, rule: CacheRules.diskFaultsHidden)
    }

    /// A bit flips in the key's intact file at rest (a second flip could undo the first, so a
    /// corrupt file is not flipped again).
    public mutating func flipBit(identifier: Int, key: Int) -> Prediction<CacheObservation> {
        let rule = fileRule[identifier][key]
        guard disk[identifier][key]?.corrupt == false else { return Prediction(.flag(false), rule: rule) }
        disk[identifier][key]?.corrupt = true
        touched = (identifier, key)
        return Prediction(.flag(true), rule: rule)
    }

    /// Whether `flipBit` applies: the file exists and is intact.
    public func canFlip(identifier: Int, key: Int) -> Bool { disk[identifier][key]?.corrupt == false }

    /// The process restarts: memory is gone, every instance reopens and cleans its folder (C9).
    /// A clean restart also runs each instance's shutdown cleanup first (same time, same effect).
    public mutating func restart(clean: Bool) -> Prediction<CacheObservation> {
        for identifier in 0..<identifierCount {
            for key in 0..<keyCount { memory[identifier][key] = nil }
        }
        writes = Array(repeating: 0, count: instances.count)
        for identifier in Set(instances).sorted() { cleanUp(identifier: identifier) }
        return Prediction(.done, rule: CacheRules.cleanupExact)
    }

    public mutating func cleanUp(instance: Int) -> Prediction<CacheObservation> {
        cleanUp(identifier: instances[instance])
        return Prediction(.done, rule: CacheRules.cleanupExact)
    }

    /// Deletes expired files; marks the files it keeps as kept by cleanup (C9).
    public mutating func cleanUp(identifier: Int) {
        strayRule[identifier] = CacheRules.cleanupExact
        for key in 0..<keyCount {
            guard let file = disk[identifier][key] else { continue }
            if isExpired(file.writtenAt) { disk[identifier][key] = nil }
            fileRule[identifier][key] = CacheRules.cleanupExact
        }
    }

    /// Whether the key's entry file exists. No file while the twin key (equal description) has one is key
    /// identity's (C2): only the twin's file could be there.
    public func hasFile(identifier: Int, key: Int) -> Prediction<CacheObservation> {
        let twin = CacheModel.twin(of: key)
        if disk[identifier][key] == nil, twin < keyCount, disk[identifier][twin] != nil {
            return Prediction(.flag(false), rule: CacheRules.keyIdentity, alsoDecided: [fileRule[identifier][key]])
        }
        return Prediction(.flag(disk[identifier][key] != nil), rule: fileRule[identifier][key])
    }

    /// Files in the folder that name no key: cleanup at every restart leaves none (C9), and a failed write removes its
    /// temporary file at once (C8).
    public func strayFiles(identifier: Int) -> Prediction<CacheObservation> {
        Prediction(.count(0), rule: strayRule[identifier])
    }

    /// A burst through a fresh actor instance of identifier 0: it opens (cleanup), sets `values[0]`,
    /// then sets `values[1...]` while as many gets run, reads the key, sets `final` and shuts down (cleanup).
    public mutating func burst(key: Int, values: [CacheValueSpec], final: CacheValueSpec) -> Prediction<CacheObservation> {
        cleanUp(identifier: 0)
        memory[0][key] = Held(value: final, writtenAt: now, by: -1)
        disk[0][key] = File(value: final, writtenAt: now, corrupt: false)
        // The file's presence afterwards is the shutdown cleanup's (C9), its value the final sequential set's.
        cleanUp(identifier: 0)
        let concurrent = values.dropFirst()
        let allowed = concurrent.map { CacheObservation.burst(allGetsAllowed: true, after: $0) }
        return Prediction(allowed.first ?? .burst(allGetsAllowed: true, after: values.first), rule: CacheRules.concurrentSets,
                           alternatives: Array(allowed.dropFirst()))
    }

    /// The intact entry files (flipBit needs one).
    public var intactFiles: [(identifier: Int, key: Int)] {
        var result: [(identifier: Int, key: Int)] = []
        for identifier in 0..<identifierCount {
            for key in 0..<keyCount where canFlip(identifier: identifier, key: key) { result.append((identifier, key)) }
        }
        return result
    }
}
