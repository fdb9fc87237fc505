import CacheSpec
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import PersistentCache

/// The `cache` state machine: the specification (`CacheModel`) and the production cache stepped side by side.
public struct CacheMachine: StateMachine, Benchmarkable, Sendable {
    public typealias Config = CacheConfig
    public typealias Model = CacheModel

    public static let keyCount = 4
    public static let maxInstances = 4
    /// Big values (over 1 MiB) are this rare among sets, so throughput stays high.
    static let valueSizeWeights: [UInt32] = [160, 1200, 620, 1]

    /// How concurrent steps of the actor's gets and sets are drawn and scheduled: half of them are pairs (the seed's
    /// test runs sets and gets of one key in pairs), and the schedule is a random walk, which finds
    /// `cache-reentrant-read` far sooner than PCT here (a read must be overtaken after it began and before it
    /// resumed; docs/performance.md has the figures).
    public var concurrentSteps = ConcurrentSteps(groupProbability: 0.5, maxBranches: 2, strategy: .randomWalk)

    /// What the production cache runs with: the shipped design, or a mutant's faults.
    let strategy: CacheStrategy
    /// Shared by every case of this machine: key identities depend only on the key and the strategy.
    let keyIdentities = KeyIdentityCache()

    /// Where real-file-system cases make their temporary folders.
    let temporaryDirectory: String

    /// - Parameter temporaryDirectory: by default the one `NSTemporaryDirectory()` names ($TMPDIR, else /tmp, with a
    ///   trailing "/").
    public init(temporaryDirectory: String = FileManager.default.temporaryDirectory.path + "/") {
        self.init(strategy: .shipped, temporaryDirectory: temporaryDirectory)
    }

    package init(strategy: CacheStrategy, temporaryDirectory: String = ScratchFolder.temporaryDirectory) {
        self.strategy = strategy
        self.temporaryDirectory = temporaryDirectory
    }

    /// Throughput benchmarks measure the simulated file system; real-disk cases are bound by fsync.
    package func isBenchmarked(_ config: CacheConfig) -> Bool { !config.realFileSystem }

    public func makeConfig(_ args: inout Arguments) -> CacheConfig {
        CacheConfig(realFileSystem: args.parameters { $0.bool("realFileSystem", probability: 0.1) },
                    cleanupInterval: args.int("cleanupInterval", in: 1...1000) { $0.chooseBool(probability: 0.2) ? 3 : 100 })
    }

    public func makeModel(_ config: CacheConfig) -> CacheModel {
        CacheModel(keyCount: CacheMachine.keyCount, identifierCount: 2, cleanupInterval: config.cleanupInterval)
    }

    public func makeSystem(_ config: CacheConfig) throws -> CacheSystem { try CacheSystem(config: config, strategy: strategy, keyIdentities: keyIdentities, temporaryDirectory: temporaryDirectory) }

    // MARK: Generation

    /// The actions, in the order of the old positional weights (get is the simplest). Each draws a command that
    /// writes its own trace; `predict` and `perform` step every command.
    public var actions: [Action<CacheMachine>] {
        func coded(_ name: String, _ weight: UInt32, when: @escaping (CacheModel) -> Bool = { _ in true },
                   _ draw: @escaping (CacheModel, Draw) -> CacheCommand?) -> Action<CacheMachine> {
            Action(name, weight: weight, when: when, arguments: { args, model in try args.coded(applies: { applies($0, model) }) { draw(model, $0) } },
                   predict: predict, perform: perform, swiftLines: swiftLines)
        }
        return [
            coded("get", 24) { m, d in .get(cache: Self.cache(m, d), key: Self.key(d)) },
            coded("set", 24) { m, d in .set(cache: Self.cache(m, d), key: Self.key(d), value: Self.value(m, d)) },
            coded("contains", 8) { m, d in .contains(cache: Self.cache(m, d), key: Self.key(d)) },
            coded("hasFile", 8) { m, d in
                if d.chooseBool(probability: 0.6) {
                    return .hasFile(identifier: CacheIdentifier(index: m.touched.identifier), key: m.touched.key)
                }
                return .hasFile(identifier: Self.identifier(d), key: Self.key(d))
            },
            coded("advance", 6) { _, d in
                switch d.chooseWeighted([4, 3, 2]) {
                case 0: return .advance(seconds: 60 * d.int(in: 1...59))
                case 1: return .advance(seconds: [3600, 3540, 3660][Int(d.choose(upTo: 2))])
                default: return .advance(seconds: 3600 * d.int(in: 1...6))
                }
            },
            coded("evict", 6) { m, d in
                if d.chooseBool(probability: 0.2) { return .evict(key: nil) }
                return .evict(key: d.chooseBool(probability: 0.5) ? m.touched.key : Self.key(d))
            },
            coded("faultySet", 6) { m, d in
                let fault = FileSystemFault.allCases[Int(d.choose(upTo: UInt64(FileSystemFault.allCases.count - 1)))]
                return .faultySet(cache: Self.cache(m, d), key: Self.key(d), value: Self.value(m, d), fault: fault,
                                  tornLength: fault.keepsPrefix ? d.int(in: 0...200) : 0)
            },
            coded("flipBit", 6, when: { !$0.intactFiles.isEmpty }) { m, d in
                let files = m.intactFiles
                let file = files[Int(d.choose(upTo: UInt64(files.count - 1)))]
                return .flipBit(identifier: CacheIdentifier(index: file.identifier), key: file.key, bit: d.int(in: 0...4095))
            },
            coded("restart", 3) { _, d in .restart(clean: d.chooseBool()) },
            coded("open", 2, when: { $0.instances.count < CacheMachine.maxInstances }) { m, d in
                .open(result: Ref(m.instances.count), identifier: Self.identifier(d))
            },
            coded("cleanUp", 2) { m, d in .cleanUp(cache: Self.cache(m, d)) },
            coded("removeFolder", 1) { _, d in .removeFolder(identifier: Self.identifier(d)) },
            coded("strayFiles", 2) { _, d in .strayFiles(identifier: Self.identifier(d)) },
            actor("actorGet", 6) { m, d in
                let cache = Self.cache(m, d)
                return .actorGet(cache: cache, key: Self.concurrentKey(m, cache, d))
            },
            actor("actorSet", 6) { m, d in
                let cache = Self.cache(m, d)
                return .actorSet(cache: cache, key: Self.concurrentKey(m, cache, d), value: Self.value(m, d))
            },
        ]
    }

    /// A get or set through the instance's `MemoryCache` actor: a step that may run concurrently with others (seed
    /// 003's concurrency tests: parallel sets and gets of one key), judged by linearizability (C10).
    private func actor(_ name: String, _ weight: UInt32, _ draw: @escaping (CacheModel, Draw) -> CacheCommand?) -> Action<CacheMachine> {
        .concurrent(name, weight: weight,
                    arguments: { args, model in try args.coded(applies: { applies($0, model) }) { draw(model, $0) } },
                    predict: { command, model in predict(command, &model).part("", rule: CacheRules.concurrentSets) },
                    perform: { command, system in try await system.performOnActor(command) })
    }

    /// Most concurrent steps touch one key, as the seed's concurrency test does: often the first key whose value is on
    /// disk and not in memory (a read of it goes to the disk), else the key last touched.
    static func concurrentKey(_ model: CacheModel, _ cache: Ref, _ draw: Draw) -> Int {
        let identifier = model.instances[cache.index]
        if draw.chooseBool(probability: 0.5),
           let cold = (0..<keyCount).first(where: { model.disk[identifier][$0] != nil && model.memory[identifier][$0] == nil }) {
            return cold
        }
        return draw.chooseBool(probability: 0.6) ? model.touched.key : key(draw)
    }

    static func cache(_ model: CacheModel, _ draw: Draw) -> Ref { Ref(Int(draw.choose(upTo: UInt64(model.instances.count - 1)))) }
    static func key(_ draw: Draw) -> Int { Int(draw.choose(upTo: UInt64(CacheMachine.keyCount - 1))) }
    static func identifier(_ draw: Draw) -> CacheIdentifier { draw.chooseBool(probability: 0.25) ? .other : .main }
    static func value(_ model: CacheModel, _ draw: Draw) -> CacheValueSpec {
        let length: Int
        switch draw.chooseWeighted(CacheMachine.valueSizeWeights) {
        case 0: length = 0
        case 1: length = draw.int(in: 1...16)
        case 2: length = draw.int(in: 17...300)
        default: length = (1 << 20) + draw.int(in: 1...4096)
        }
        return CacheValueSpec(tag: model.nextTag, length: length)
    }

    /// Whether a command read from a trace applies in `model`.
    func applies(_ command: CacheCommand, _ model: CacheModel) -> Bool {
        func valid(_ ref: Ref) -> Bool { ref.index < model.instances.count }
        switch command {
        case .get(let cache, _), .contains(let cache, _), .set(let cache, _, _), .faultySet(let cache, _, _, _, _), .cleanUp(let cache),
             .actorGet(let cache, _), .actorSet(let cache, _, _):
            return valid(cache)
        case .open(let result, _): return result.index == model.instances.count && model.instances.count < CacheMachine.maxInstances
        case .flipBit(let identifier, let key, _): return model.canFlip(identifier: identifier.index, key: key)
        case .hasFile, .advance, .evict, .restart, .removeFolder, .strayFiles: return true
        }
    }

    // MARK: Stepping

    func predict(_ command: CacheCommand, _ model: inout CacheModel) -> Prediction<CacheObservation> {
        switch command {
        case .get(let cache, let key), .actorGet(let cache, let key): return model.get(instance: cache.index, key: key)
        case .set(let cache, let key, let value), .actorSet(let cache, let key, let value):
            _ = model.takeTags(1)
            return model.set(instance: cache.index, key: key, value: value)
        case .contains(let cache, let key): return model.contains(instance: cache.index, key: key)
        case .hasFile(let identifier, let key): return model.hasFile(identifier: identifier.index, key: key)
        case .advance(let seconds): return model.advance(seconds: seconds)
        case .evict(let key): return model.evict(key: key)
        case .faultySet(let cache, let key, let value, let fault, _):
            _ = model.takeTags(1)
            if fault.crashes { return model.crashingSet(instance: cache.index, key: key) }
            return model.failedSet(instance: cache.index, key: key, value: value, failsAtRename: fault == .failedRename)
        case .flipBit(let identifier, let key, _): return model.flipBit(identifier: identifier.index, key: key)
        case .restart(let clean): return model.restart(clean: clean)
        case .open(_, let identifier): return model.open(identifier: identifier.index)
        case .cleanUp(let cache): return model.cleanUp(instance: cache.index)
        case .removeFolder(let identifier): return model.removeFolder(identifier: identifier.index)
        case .strayFiles(let identifier): return model.strayFiles(identifier: identifier.index)
        }
    }

    /// Performs `command`. Throws a `HarnessFault` when the real file system under a real-disk case failed on its
    /// own during the step (disk full, an I/O error that no armed fault made): the specification models only the
    /// injected faults, so such a step cannot be judged, and the machine's disk is not the cache's to answer for.
    package func perform(_ command: CacheCommand, _ system: inout CacheSystem) throws -> CacheObservation {
        let observation = try performOnSystem(command, &system)
        if let failure = system.faults.takeEnvironmentFailure() {
            throw HarnessFault("the real file system failed on its own during the step (no injected fault): \(failure)")
        }
        return observation
    }

    private func performOnSystem(_ command: CacheCommand, _ system: inout CacheSystem) throws -> CacheObservation {
        switch command {
        case .get(let cache, let key):
            let core = system.caches[cache.index]
            return CacheTargetValue.observeRead(core.value(for: CacheTargetKey(key)), key: key) {
                system.faults.fileExists(at: system.filePath(CacheIdentifier(rawValue: core.identifier) ?? .main, key))
            }
        case .set(let cache, let key, let value):
            let core = system.caches[cache.index]
            core.set(CacheTargetValue.bytes(value, key: key), for: CacheTargetKey(key))
            return .folders([system.folderView(CacheTargetFiles.index(of: core.identifier))])
        case .contains(let cache, let key):
            return .flag(system.caches[cache.index].contains(CacheTargetKey(key)))
        case .hasFile(let identifier, let key):
            return .flag(system.faults.fileExists(at: system.filePath(identifier, key)))
        case .advance(let seconds):
            system.clock.advance(by: TimeInterval(seconds))
            return .done
        case .evict(let key):
            system.evict(key)
            return .done
        case .faultySet(let cache, let key, let value, let fault, let tornLength):
            system.faults.arm(fault, tornLength: tornLength)
            system.caches[cache.index].set(CacheTargetValue.bytes(value, key: key), for: CacheTargetKey(key))
            let interrupted = system.faults.isCrashed
            let fired = !system.faults.isArmed
            system.faults.disarm()
            let identifier = CacheTargetFiles.index(of: system.caches[cache.index].identifier)
            guard fault.crashes else {
                return .failedWrite(renameReached: fault == .failedRename ? fired : nil, system.folderView(identifier))
            }
            // The process dies: during the set if the fault fired, else just after it.
            system.restart(clean: false)
            let file = CacheTargetFiles.file(system.caches[cache.index].storedEntry(for: CacheTargetKey(key)), key: key)
            return .crashed(interrupted: interrupted, file: file, folders: system.instanceFolders())
        case .flipBit(let identifier, let key, let bit):
            return .flag(system.faults.flipBit(in: system.filePath(identifier, key), bit: bit))
        case .restart(let clean):
            system.restart(clean: clean)
            return .folders(system.instanceFolders())
        case .open(_, let identifier):
            system.add(identifier)
            return .folders([system.folderView(identifier.index)])
        case .cleanUp(let cache):
            let core = system.caches[cache.index]
            core.cleanUp()
            return .folders([system.folderView(CacheTargetFiles.index(of: core.identifier))])
        case .removeFolder(let identifier):
            system.faults.removeFolderExternally(system.folder(identifier))
            return .done
        case .strayFiles(let identifier):
            return .count(system.strayFiles(identifier))
        case .actorGet, .actorSet:
            throw HarnessFault("\(command.trace) runs on the actor, as a concurrent step")
        }
    }

    public func tearDown(_ system: inout CacheSystem) { system.tearDown() }
}
