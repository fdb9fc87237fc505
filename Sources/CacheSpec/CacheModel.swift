import GraphFuzzEngine

/// The specification's state of the cache: the clock, the instances, the memory tier of each
/// identifier (shared by its instances) and the files of each identifier's folder.
///
/// Keys are small integers; key `k` and key `k ^ 1` have equal descriptions but are different keys.
/// Every step predicts what the cache must observe under the rule that decides it; a folder it observes carries, for
/// each part, the rule that last decided it (provenance: each change to a file records its rule). None has
/// alternatives. Concurrent gets and sets through the actor are judged by stepping this model in every order that
/// respects real time (C10).
public struct CacheModel: Sendable {
    /// A value in memory with its write time.
    public struct Held: Sendable, Equatable {
        public var value: CacheValueSpec
        public var writtenAt: Int
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
    /// Provenance, `fileRules[identifier][key]`: the rule that last decided whether the key's file is there: a set
    /// writing it (C3), a failed write removing it or a vanished folder (C8), a crash leaving it as it was (C5), a
    /// cleanup examining it (C9), a read deleting it (C4, C6). A key no step has written has no file but by another
    /// key's write (C2). Last, at `[identifier][keyCount]`, the rule that last decided the folder holds no stray
    /// file: a set committing with one rename (C5), a failed write cleaning up after itself or a vanished folder
    /// (C8), a cleanup (C9).
    private var fileRules: [[String]]
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
        fileRules = Array(repeating: Array(repeating: CacheRules.keyIdentity, count: keyCount) + [CacheRules.cleanupExact], count: identifierCount)
    }

    /// Takes `count` fresh tags.
    public mutating func takeTags(_ count: Int) -> Int {
        let first = nextTag
        nextTag = (nextTag - 1 + count) % 255 + 1
        return first
    }

    // MARK: The rules, one function each

    /// C4: a value written an hour or more ago has expired (seed "Directory Management": files older than
    /// 1 hour are removed).
    public func isExpired(_ writtenAt: Int) -> Bool { now - writtenAt >= CacheModel.expiry }

    /// C9: whether a cleanup keeps a file: exactly the fresh entries (seed "Directory Management", "Disk I/O").
    func cleanupKeeps(_ file: File) -> Bool { !isExpired(file.writtenAt) }

    /// C9: a cleanup runs after every `cleanupInterval` writes of an instance (seed "Disk I/O": every 100 writes).
    func cleanupDue(afterWrites count: Int) -> Bool { count % cleanupInterval == 0 }

    /// C7: `contains` answers from memory alone: an unexpired value held for the key (seed "contains(_:)").
    func memoryHolds(_ identifier: Int, _ key: Int) -> Bool {
        guard let held = memory[identifier][key] else { return false }
        return !isExpired(held.writtenAt)
    }

    // MARK: Steps

    /// A set (C1: memory holds it for every instance of the identifier; C3: written through to disk, C5: apart, then
    /// committed with one rename, so no temporary file stays), and the periodic cleanup it may trigger (C9). Observes the
    /// folder afterwards.
    public mutating func set(instance: Int, key: Int, value: CacheValueSpec) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        memory[identifier][key] = Held(value: value, writtenAt: now)
        setFile(identifier, key, File(value: value, writtenAt: now, corrupt: false), by: CacheRules.diskReadBack)
        fileRules[identifier][keyCount] = CacheRules.atomicWrites
        touched = (identifier, key)
        countWrite(instance)
        return Prediction(CacheObservation.folders([folder(identifier)]), rule: CacheRules.diskReadBack)
    }

    /// A set whose write fails without a crash (failed write, full disk before or during the file, a partial write, a
    /// failed fsync, a failed rename): memory keeps the value, the older disk copy goes, no temporary file stays (C8).
    /// A failing rename was reached (C5: a set commits with a rename).
    public mutating func failedSet(instance: Int, key: Int, value: CacheValueSpec, failsAtRename: Bool) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        memory[identifier][key] = Held(value: value, writtenAt: now)
        setFile(identifier, key, nil, by: CacheRules.diskFaultsHidden)
        fileRules[identifier][keyCount] = CacheRules.diskFaultsHidden
        touched = (identifier, key)
        countWrite(instance)
        let prediction = Prediction(CacheObservation.failedWrite(renameReached: failsAtRename ? true : nil, folder(identifier)),
                                    rule: CacheRules.diskFaultsHidden)
        return failsAtRename ? prediction.part(CacheObservation.renameLabel, rule: CacheRules.atomicWrites) : prediction
    }

    /// A set during which the process crashes (torn write, crash between write and rename), then the restart: the crash
    /// interrupts the set (a write has a separate commit point, the rename) and the key's file holds what it held before,
    /// never a prefix (C5), which the restart's cleanup keeps unless it expired (C9). The file's key is its own (C2), and
    /// whether the key has a file the rule that last decided it.
    public mutating func crashingSet(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        touched = (identifier, key)
        fileRules[identifier][key] = CacheRules.atomicWrites
        let folders = restartCleaning()
        var file = CacheFile.none
        if let kept = disk[identifier][key] { file = kept.corrupt ? .damaged : .value(kept.value) }
        return Prediction(CacheObservation.crashed(interrupted: true, file: file, folders: folders), rule: CacheRules.atomicWrites)
            .part(CacheObservation.fileKeyLabel, rule: CacheRules.keyIdentity)
            .part(CacheObservation.fileKeptLabel, rule: fileRules[identifier][key])
    }

    /// The key's file becomes `file`, decided by `rule`.
    private mutating func setFile(_ identifier: Int, _ key: Int, _ file: File?, by rule: String) {
        disk[identifier][key] = file
        fileRules[identifier][key] = rule
    }

    /// C9: the write count of an instance, and the cleanup it triggers.
    private mutating func countWrite(_ instance: Int) {
        writes[instance] += 1
        if cleanupDue(afterWrites: writes[instance]) { cleanUp(identifier: instances[instance]) }
    }

    /// A read: memory (C1), else disk (C3, promoted to memory), never expired (C4) or corrupt (C6) values, and never
    /// another key's value (C2); else nothing.
    public mutating func get(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        touched = (identifier, key)
        if let held = memory[identifier][key] {
            if !isExpired(held.writtenAt) { return read(held.value, CacheRules.lastValueRead) }
            memory[identifier][key] = nil
            // The read goes on to the file and deletes it: corrupt, for failing its checksum (C6: its write time cannot
            // be read), else for being expired (C4).
            if let file = disk[identifier][key], file.corrupt {
                setFile(identifier, key, nil, by: CacheRules.corruptFileDeleted)
                return read(nil, CacheRules.corruptFileDeleted)
            }
            if disk[identifier][key] != nil { setFile(identifier, key, nil, by: CacheRules.expiredNeverReturned) }
            return read(nil, CacheRules.expiredNeverReturned)
        }
        if let file = disk[identifier][key] {
            if file.corrupt {
                setFile(identifier, key, nil, by: CacheRules.corruptFileDeleted)
                return read(nil, CacheRules.corruptFileDeleted)
            }
            if isExpired(file.writtenAt) {
                setFile(identifier, key, nil, by: CacheRules.expiredNeverReturned)
                return read(nil, CacheRules.expiredNeverReturned)
            }
            memory[identifier][key] = Held(value: file.value, writtenAt: file.writtenAt)
            return read(file.value, CacheRules.diskReadBack)
        }
        // Nothing, as whatever left the key without a file decided (C2 for a key no step has written).
        return read(nil, fileRules[identifier][key])
    }

    /// A read's prediction: the value under `rule`, and never another key's value (C2).
    private func read(_ value: CacheValueSpec?, _ rule: String) -> Prediction<CacheObservation> {
        Prediction(.value(value), rule: rule).part(CacheObservation.keyLabel, rule: CacheRules.keyIdentity)
    }

    /// contains: true from a memory hit, which another instance of the identifier may have put there (C1); false
    /// without reading the disk (C7).
    public func contains(instance: Int, key: Int) -> Prediction<CacheObservation> {
        if memoryHolds(instances[instance], key) { return Prediction(.flag(true), rule: CacheRules.lastValueRead) }
        return Prediction(.flag(false), rule: CacheRules.containsMemoryOnly)
    }

    public mutating func advance(seconds: Int) -> Prediction<CacheObservation> {
        now += seconds
        return Prediction(.done, rule: CacheRules.expiredNeverReturned)
    }

    /// Memory pressure evicts `key` (nil: everything) from every memory tier; the disk keeps the values (C3).
    public mutating func evict(key: Int?) -> Prediction<CacheObservation> {
        for identifier in 0..<identifierCount {
            for slot in 0..<keyCount where key == nil || key == slot { memory[identifier][slot] = nil }
        }
        return Prediction(.done, rule: CacheRules.diskReadBack)
    }

    /// Another instance opens and cleans its folder (C9).
    public mutating func open(identifier: Int) -> Prediction<CacheObservation> {
        instances.append(identifier)
        writes.append(0)
        return cleaning([identifier])
    }

    /// The identifier's folder vanishes with every file in it; memory stays (C8).
    public mutating func removeFolder(identifier: Int) -> Prediction<CacheObservation> {
        for key in 0..<keyCount { setFile(identifier, key, nil, by: CacheRules.diskFaultsHidden) }
        fileRules[identifier][keyCount] = CacheRules.diskFaultsHidden
        return Prediction(.done, rule: CacheRules.diskFaultsHidden)
    }

    /// A bit flips in the key's intact file at rest (a second flip could undo the first, so a corrupt file is not
    /// flipped again). The file is there while its value is on disk (C3).
    public mutating func flipBit(identifier: Int, key: Int) -> Prediction<CacheObservation> {
        guard canFlip(identifier: identifier, key: key) else { return Prediction(.flag(false), rule: CacheRules.diskReadBack) }
        disk[identifier][key]?.corrupt = true
        touched = (identifier, key)
        return Prediction(.flag(true), rule: CacheRules.diskReadBack)
    }

    /// Whether `flipBit` applies: the file exists and is intact.
    public func canFlip(identifier: Int, key: Int) -> Bool { disk[identifier][key]?.corrupt == false }

    /// The process restarts: memory is gone, every instance reopens and cleans its folder (C9). A clean restart also
    /// runs each instance's shutdown cleanup first (same time, same effect).
    public mutating func restart(clean: Bool) -> Prediction<CacheObservation> {
        Prediction(CacheObservation.folders(restartCleaning()), rule: CacheRules.cleanupExact)
    }

    /// Memory gone, write counts reset, every instance's folder cleaned: the folders afterwards.
    private mutating func restartCleaning() -> [CacheFolder] {
        for identifier in 0..<identifierCount {
            for key in 0..<keyCount { memory[identifier][key] = nil }
        }
        writes = Array(repeating: 0, count: instances.count)
        let identifiers = Set(instances).sorted()
        for identifier in identifiers { cleanUp(identifier: identifier) }
        return identifiers.map(folder)
    }

    public mutating func cleanUp(instance: Int) -> Prediction<CacheObservation> { cleaning([instances[instance]]) }

    /// Cleans the folders of `identifiers` and observes them.
    private mutating func cleaning(_ identifiers: [Int]) -> Prediction<CacheObservation> {
        for identifier in identifiers { cleanUp(identifier: identifier) }
        return Prediction(CacheObservation.folders(identifiers.map(folder)), rule: CacheRules.cleanupExact)
    }

    /// C9: deletes the expired files and keeps the fresh ones, and the files no key names; it decides every file it
    /// examines.
    public mutating func cleanUp(identifier: Int) {
        for key in 0..<keyCount {
            if let file = disk[identifier][key] { setFile(identifier, key, cleanupKeeps(file) ? file : nil, by: CacheRules.cleanupExact) }
        }
        fileRules[identifier][keyCount] = CacheRules.cleanupExact
    }

    /// Whether the key's entry file exists: while its value is on disk (C3), under the rule that last decided it.
    public func hasFile(identifier: Int, key: Int) -> Prediction<CacheObservation> {
        Prediction(.flag(disk[identifier][key] != nil), rule: fileRules[identifier][key])
    }

    /// Files in the folder that name no key: none, under the rule that last decided it (a set's rename, a failed
    /// write, a cleanup).
    public func strayFiles(identifier: Int) -> Prediction<CacheObservation> {
        Prediction(.count(0), rule: fileRules[identifier][keyCount])
    }

    // MARK: Folders

    /// The folder of `identifier` as the model holds it (no stray files: no step leaves one), with its provenance.
    public func folder(_ identifier: Int) -> CacheFolder {
        var files: UInt8 = 0
        for key in 0..<keyCount where disk[identifier][key] != nil { files |= 1 << UInt8(key) }
        var folder = CacheFolder(identifier: identifier, files: files)
        folder.provenance = fileRules[identifier]
        return folder
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
