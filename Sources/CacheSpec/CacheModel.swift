import GraphFuzzEngine

/// The specification's state of the cache: the clock, the instances, the memory tier of each
/// identifier (shared by its instances) and the files of each identifier's folder.
///
/// Keys are small integers; key `k` and key `k ^ 1` have equal descriptions but are different keys.
/// Every step predicts what the cache must observe, each part under the rule that decides it (the step's own
/// rule, unless a part is declared otherwise where the step decides it); none has alternatives. Concurrent gets and
/// sets through the actor are judged by stepping this model in every order that respects real time (C10).
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
    }

    /// Takes `count` fresh tags.
    public mutating func takeTags(_ count: Int) -> Int {
        let first = nextTag
        nextTag = (nextTag - 1 + count) % 255 + 1
        return first
    }

    // MARK: The rules, one function each

    /// C2: the key whose description equals `key`'s; a different key (seed "File Naming").
    public static func twin(of key: Int) -> Int { key ^ 1 }

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

    /// C2: whether the key's equal-description twin has an entry (in memory, expired or not, or on disk) that only a
    /// key-identity fault could return for the key.
    func twinHasEntry(_ identifier: Int, _ key: Int) -> Bool {
        let twin = CacheModel.twin(of: key)
        return twin < keyCount && (memory[identifier][twin] != nil || disk[identifier][twin] != nil)
    }

    // MARK: Steps

    /// A set (C1: memory holds it for every instance of the identifier; C3: written through to disk), and the periodic
    /// cleanup it may trigger (C9). Observes the folder afterwards.
    public mutating func set(instance: Int, key: Int, value: CacheValueSpec) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        memory[identifier][key] = Held(value: value, writtenAt: now)
        disk[identifier][key] = File(value: value, writtenAt: now, corrupt: false)
        touched = (identifier, key)
        let examined = countWrite(instance)
        let prediction = Prediction(CacheObservation.folders([folder(identifier)]), rule: CacheRules.diskReadBack)
        // C5: a set writes apart and commits with one rename, so no temporary file stays.
        return declareFolder(prediction, identifier, examined: examined, strays: examined != 0 ? CacheRules.cleanupExact : CacheRules.atomicWrites,
                             step: (key, CacheRules.diskReadBack))
    }

    /// A set whose write fails without a crash (failed write, full disk before or during the file, a partial write, a
    /// failed fsync, a failed rename): memory keeps the value, the older disk copy goes, no temporary file stays (C8).
    /// A failing rename was reached (C5: a set commits with a rename).
    public mutating func failedSet(instance: Int, key: Int, value: CacheValueSpec, failsAtRename: Bool) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        memory[identifier][key] = Held(value: value, writtenAt: now)
        disk[identifier][key] = nil
        touched = (identifier, key)
        let examined = countWrite(instance)
        var prediction = Prediction(CacheObservation.failedWrite(renameReached: failsAtRename ? true : nil, folder(identifier)),
                                    rule: CacheRules.diskFaultsHidden)
        if failsAtRename { prediction = prediction.part(CacheObservation.renameLabel, rule: CacheRules.atomicWrites) }
        return declareFolder(prediction, identifier, examined: examined, strays: examined != 0 ? CacheRules.cleanupExact : CacheRules.diskFaultsHidden,
                             step: (key, CacheRules.diskFaultsHidden))
    }

    /// A set during which the process crashes (torn write, crash between write and rename), then the restart: the crash
    /// interrupts the set (a write has a separate commit point, the rename) and the key's file holds what it held before,
    /// never a prefix (C5), which the restart's cleanup keeps unless it expired (C9).
    public mutating func crashingSet(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        touched = (identifier, key)
        let (folders, examined) = restartCleaning()
        var file = CacheFile.none
        if let kept = disk[identifier][key] { file = kept.corrupt ? .damaged : .value(kept.value) }
        var prediction = Prediction(CacheObservation.crashed(interrupted: true, file: file, folders: folders), rule: CacheRules.atomicWrites)
            .part(CacheObservation.fileKeyLabel, rule: CacheRules.keyIdentity)
        // An older fresh file is the restart's cleanup's to keep (C9), and so is its damage if a bit flipped in it.
        // Otherwise the key has no file after the crash (C5): a file there, damaged or whole, is what the interrupted
        // set wrote, and so is a prefix in place of an older intact file.
        if file == .damaged { prediction = prediction.part(CacheObservation.fileDamagedLabel, rule: CacheRules.cleanupExact) }
        if file != .none { prediction = prediction.part(CacheObservation.fileKeptLabel, rule: CacheRules.cleanupExact) }
        return declareCleaned(prediction, folders.map(\.identifier), examined: examined)
    }

    /// C9: the write count of an instance, and the cleanup it triggers; returns the files that cleanup examined (none
    /// when no cleanup ran).
    private mutating func countWrite(_ instance: Int) -> UInt8 {
        writes[instance] += 1
        guard cleanupDue(afterWrites: writes[instance]) else { return 0 }
        return cleanUp(identifier: instances[instance])
    }

    /// A read: memory (C1), else disk (C3, promoted to memory), never expired (C4) or corrupt (C6) values; a miss while
    /// the equal-description twin holds a value is key identity's (C2). A read never returns another key's value (C2).
    public mutating func get(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        touched = (identifier, key)
        if let held = memory[identifier][key] {
            if !isExpired(held.writtenAt) { return read(held.value, CacheRules.lastValueRead) }
            memory[identifier][key] = nil
            if let file = disk[identifier][key] {
                // The read goes on to the file and deletes it: corrupt, for failing its checksum (C6: its write time
                // cannot be read), else for being expired (C4).
                disk[identifier][key] = nil
                if file.corrupt { return read(nil, CacheRules.corruptFileDeleted) }
            }
            return read(nil, CacheRules.expiredNeverReturned)
        }
        if let file = disk[identifier][key] {
            if file.corrupt {
                disk[identifier][key] = nil
                return read(nil, CacheRules.corruptFileDeleted)
            }
            if isExpired(file.writtenAt) {
                disk[identifier][key] = nil
                return read(nil, CacheRules.expiredNeverReturned)
            }
            memory[identifier][key] = Held(value: file.value, writtenAt: file.writtenAt)
            return read(file.value, CacheRules.diskReadBack)
        }
        if twinHasEntry(identifier, key) { return read(nil, CacheRules.keyIdentity) }
        return read(nil, CacheRules.lastValueRead)
    }

    /// A read's prediction: the value under `rule`, and never another key's value (C2).
    private func read(_ value: CacheValueSpec?, _ rule: String) -> Prediction<CacheObservation> {
        Prediction(.value(value), rule: rule).part(CacheObservation.keyLabel, rule: CacheRules.keyIdentity)
    }

    /// contains: true from a memory hit, which another instance of the identifier may have put there (C1); false
    /// without reading the disk (C7). A miss while the twin key (equal description) has a value in memory and the key
    /// has no file is key identity's (C2): only the twin's value could make it true.
    public func contains(instance: Int, key: Int) -> Prediction<CacheObservation> {
        let identifier = instances[instance]
        if memoryHolds(identifier, key) { return Prediction(.flag(true), rule: CacheRules.lastValueRead) }
        let twin = CacheModel.twin(of: key)
        if disk[identifier][key] == nil, twin < keyCount, memoryHolds(identifier, twin) {
            return Prediction(.flag(false), rule: CacheRules.keyIdentity)
        }
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
        for key in 0..<keyCount { disk[identifier][key] = nil }
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
        let (folders, examined) = restartCleaning()
        let prediction = Prediction(CacheObservation.folders(folders), rule: CacheRules.cleanupExact)
        return declareCleaned(prediction, folders.map(\.identifier), examined: examined)
    }

    /// Memory gone, write counts reset, every instance's folder cleaned: the folders afterwards, and the files each
    /// cleanup examined.
    private mutating func restartCleaning() -> (folders: [CacheFolder], examined: [UInt8]) {
        for identifier in 0..<identifierCount {
            for key in 0..<keyCount { memory[identifier][key] = nil }
        }
        writes = Array(repeating: 0, count: instances.count)
        let identifiers = Set(instances).sorted()
        let examined = identifiers.map { cleanUp(identifier: $0) }
        return (identifiers.map(folder), examined)
    }

    public mutating func cleanUp(instance: Int) -> Prediction<CacheObservation> { cleaning([instances[instance]]) }

    /// Cleans the folders of `identifiers` and observes them.
    private mutating func cleaning(_ identifiers: [Int]) -> Prediction<CacheObservation> {
        let examined = identifiers.map { cleanUp(identifier: $0) }
        let prediction = Prediction(CacheObservation.folders(identifiers.map(folder)), rule: CacheRules.cleanupExact)
        return declareCleaned(prediction, identifiers, examined: examined)
    }

    /// C9: deletes the expired files and keeps the fresh ones; returns the files it examined.
    @discardableResult
    public mutating func cleanUp(identifier: Int) -> UInt8 {
        let examined = folder(identifier).files
        for key in 0..<keyCount {
            if let file = disk[identifier][key], !cleanupKeeps(file) { disk[identifier][key] = nil }
        }
        return examined
    }

    /// Whether the key's entry file exists: while its value is on disk (C3). No file while the twin key (equal
    /// description) has one is key identity's (C2): only the twin's file could be there.
    public func hasFile(identifier: Int, key: Int) -> Prediction<CacheObservation> {
        let has = disk[identifier][key] != nil
        let twin = CacheModel.twin(of: key)
        if !has, twin < keyCount, disk[identifier][twin] != nil { return Prediction(.flag(false), rule: CacheRules.keyIdentity) }
        return Prediction(.flag(has), rule: CacheRules.diskReadBack)
    }

    /// Files in the folder that name no key: every cleanup leaves none (C9); the steps that write or clean a folder
    /// check their own.
    public func strayFiles(identifier: Int) -> Prediction<CacheObservation> {
        Prediction(.count(0), rule: CacheRules.cleanupExact)
    }

    // MARK: Folders

    /// The folder of `identifier` as the model holds it (no stray files: no step leaves one).
    public func folder(_ identifier: Int) -> CacheFolder {
        var files: UInt8 = 0
        for key in 0..<keyCount where disk[identifier][key] != nil { files |= 1 << UInt8(key) }
        return CacheFolder(identifier: identifier, files: files)
    }

    /// Declares the parts of the folders of `identifiers`, each cleaned after examining `examined`'s files (C9).
    private func declareCleaned(_ prediction: Prediction<CacheObservation>, _ identifiers: [Int], examined: [UInt8]) -> Prediction<CacheObservation> {
        zip(identifiers, examined).reduce(prediction) { declareFolder($0, $1.0, examined: $1.1, strays: CacheRules.cleanupExact, step: nil) }
    }

    /// Declares the rule of each part of `identifier`'s folder in `prediction`: a file a cleanup examined is the
    /// cleanup's (C9: kept while fresh, deleted once expired); the key the step wrote is `step`'s rule; any other key's
    /// file is key identity's (C2: a step on one key never touches another key's file); stray files are `strays`'.
    /// Parts under the prediction's own rule are left undeclared.
    private func declareFolder(_ prediction: Prediction<CacheObservation>, _ identifier: Int, examined: UInt8, strays: String,
                               step: (key: Int, rule: String)?) -> Prediction<CacheObservation> {
        var declared = prediction
        for key in 0..<keyCount {
            let rule = examined & (1 << UInt8(key)) != 0 ? CacheRules.cleanupExact
                : key == step?.key ? step!.rule : CacheRules.keyIdentity
            if rule != prediction.rule { declared = declared.part(CacheFolder.fileLabel(identifier, key), rule: rule) }
        }
        if strays != prediction.rule { declared = declared.part(CacheFolder.strayLabel(identifier), rule: strays) }
        return declared
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
