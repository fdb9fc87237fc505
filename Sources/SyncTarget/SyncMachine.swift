import GlassSync
import GraphFuzzEngine
import SyncSpec

/// The `sync` target's state machine: the sync specification and the GlassSync world side by side.
public struct SyncMachine: StateMachine, Sendable {
    public typealias Config = SyncConfig
    public typealias Model = SyncSpecModel
    public typealias System = SyncSystem

    package let strategy: SyncStrategy
    static let deviceCount = 2

    package init(strategy: SyncStrategy = .production) { self.strategy = strategy }

    public func makeConfig(_ args: inout Arguments) -> SyncConfig {
        let granularity = args.enumeration("granularity", SpecGranularity.self) { SpecGranularity.allCases[Int($0.choose(upTo: 1))] }
        return SyncConfig(granularity: granularity, start: SyncStart.draw(&args))
    }

    public func makeModel(_ config: SyncConfig) -> SyncSpecModel {
        var model = SyncSpecModel(deviceCount: Self.deviceCount, granularity: config.granularity)
        config.start.apply(to: &model)
        return model
    }

    public func makeSystem(_ config: SyncConfig) throws -> SyncSystem {
        var system = SyncSystem(world: SyncWorld(deviceCount: Self.deviceCount,
                                                 granularity: ConflictGranularity(rawValue: config.granularity.rawValue)!,
                                                 strategy: strategy, initialProjects: ProjectKind.allCases))
        try config.start.apply(to: &system)
        return system
    }

    // MARK: Generation

    private enum Kind: Int { case add, push, fetch, migrate, remove, move, quantity, create, rollback, restart }

    /// The actions. Phase changes come early (most steps run with entities) and phase 3, which is
    /// final, comes late: the migrate weight falls with the phase; rolling reads back exists only in phase 2.
    public var actions: [Action<SyncMachine>] {
        func command(_ draw: @escaping (SyncSpecModel, Draw) -> SyncCommand?) -> (inout Arguments, SyncSpecModel) throws -> SyncCommand {
            { args, model in try args.coded(applies: { applies($0, model) }) { draw(model, $0) } }
        }
        func coded(_ name: String, _ weight: UInt32, when: @escaping (SyncSpecModel) -> Bool = { _ in true },
                   _ draw: @escaping (SyncSpecModel, Draw) -> SyncCommand?) -> Action<SyncMachine> {
            Action(name, weight: weight, when: when, arguments: command(draw), predict: predict, perform: perform, swiftLines: swiftLines)
        }
        func coded(_ name: String, weights: @escaping (SyncSpecModel) -> UInt32, when: @escaping (SyncSpecModel) -> Bool,
                   _ draw: @escaping (SyncSpecModel, Draw) -> SyncCommand?) -> Action<SyncMachine> {
            Action(name, weights: weights, when: when, arguments: command(draw), predict: predict, perform: perform, swiftLines: swiftLines)
        }
        func device(_ draw: Draw) -> Int { Int(draw.choose(upTo: UInt64(Self.deviceCount - 1))) }
        func item(_ kind: Kind, _ model: SyncSpecModel, _ draw: Draw, _ make: (DeviceName, Ref) -> SyncCommand) -> SyncCommand? {
            let d = device(draw)
            return pickCandidate(model, d, kind, draw).map { make(DeviceName(d), Ref($0)) }
        }
        return [
            coded("addItem", 8) { m, d in addItem(m, device(d), d) },
            coded("push", 5) { _, d in .push(DeviceName(device(d))) },
            coded("fetch", 5) { m, d in
                let device = device(d)
                return .fetch(DeviceName(device), deliver: drawDelivery(m, device, d))
            },
            coded("migrate", weights: { [4, 2, 1, 0][$0.phase] }, when: { $0.phase < 3 }) { _, _ in .migrate },
            coded("removeItem", 2) { m, d in item(.remove, m, d) { .removeItem($0, item: $1) } },
            coded("moveItem", 3) { m, d in
                let dev = device(d)
                if d.chooseBool(probability: Self.openGapProbability), let (item, to) = openGapMove(m, dev, d) {
                    return .moveItem(DeviceName(dev), item: Ref(item), to: to)
                }
                return pickCandidate(m, dev, .move, d).map { .moveItem(DeviceName(dev), item: Ref($0), to: moveTarget(m, dev, $0, d)) }
            },
            coded("setQuantity", 3) { m, d in item(.quantity, m, d) { .setQuantity($0, item: $1, quantity: 2 + Int(d.choose(upTo: 3))) } },
            coded("createProject", 3) { m, d in
                let device = DeviceName(device(d))
                return .createProject(device, SpecProjectKind(rawValue: Int(d.choose(upTo: 2)))!, result: Ref(m.objects.count))
            },
            coded("rollbackReads", 2, when: { $0.phase == 2 }) { _, _ in .rollbackReads },
            coded("restart", 1) { _, d in .restart(DeviceName(device(d))) },
        ]
    }

    /// An item added to a project present on device `d`: oldest first (stable when shrinking deletes a later
    /// creation), or the newest project, so that items often go to projects created during the case. The present
    /// projects are counted and the chosen one found by a second pass (no list per step).
    /// Where a move goes: anywhere (the simplest), the front, the end, or between two neighbours whose order the
    /// rules leave open (two devices placed them concurrently) when there are such.
    private func moveTarget(_ model: SyncSpecModel, _ d: Int, _ item: Int, _ draw: Draw) -> Int {
        let count = model.arrayCount(d, of: item)
        switch draw.chooseWeighted(Self.moveWeights) {
        case 1: return 0
        case 2: return count - 1
        case 3:
            let object = model.objects[item]
            let others = model.order(d, Int(object.owner), object.collection).filter { $0 != item }
            if let open = others.indices.dropFirst().first(where: { !model.precedes(d, others[$0 - 1], others[$0]) }) {
                return open
            }
            return Int(draw.choose(upTo: UInt64(count - 1)))
        default: return Int(draw.choose(upTo: UInt64(count - 1)))
        }
    }

    /// A move into a gap whose order the rules leave open: on device `d`, an item of an ordered array of at least
    /// three items moved between the first two neighbours that two devices placed concurrently (drawn uniformly
    /// among such moves over every array); nil when no array has such a gap.
    private func openGapMove(_ model: SyncSpecModel, _ d: Int, _ draw: Draw) -> (item: Int, to: Int)? {
        var moves: [(item: Int, to: Int)] = []
        for p in model.projectIndexes where model.isPresent(p, on: d) {
            for collection in model.objects[p].kind.collections where collection.isOrdered {
                let order = model.order(d, p, collection)
                guard order.count >= 3,
                      let k = order.indices.dropFirst().first(where: { !model.precedes(d, order[$0 - 1], order[$0]) }) else { continue }
                for item in order where item != order[k - 1] && item != order[k] {
                    let others = order.filter { $0 != item }
                    moves.append((item, others.firstIndex(of: order[k])!))
                }
            }
        }
        guard !moves.isEmpty else { return nil }
        return moves[Int(draw.choose(upTo: UInt64(moves.count - 1)))]
    }

    /// How often a move is drawn as a move into a gap of open order (`openGapMove`) when some array has one.
    private static let openGapProbability = 0.5

    /// Anywhere, front, end, between neighbours of open order.
    private static let moveWeights: [UInt32] = [3, 2, 2, 3]

    /// An item added on device `d`: often to the array the newest item went to (on either device), so that the two
    /// devices append to one array concurrently and, once synced, hold items whose order the rules leave open; else to a present
    /// project drawn as below.
    private func addItem(_ model: SyncSpecModel, _ d: Int, _ draw: Draw) -> SyncCommand? {
        if draw.chooseBool(probability: 0.35),
           let newest = model.objects.indices.last(where: { !model.objects[$0].isProject }),
           case let project = Int(model.objects[newest].owner), model.isPresent(project, on: d) {
            return .addItem(DeviceName(d), project: Ref(project), model.objects[newest].collection, code: Int(draw.choose(upTo: 3)),
                            result: Ref(model.objects.count))
        }
        var present = 0
        for p in model.projectIndexes where model.isPresent(p, on: d) { present += 1 }
        guard present > 0 else { return nil }
        var k = draw.chooseBool(probability: 0.3) ? present - 1 : Int(draw.choose(upTo: UInt64(present - 1)))
        var project = -1
        for p in model.projectIndexes where model.isPresent(p, on: d) {
            if k == 0 { project = p; break }
            k -= 1
        }
        let collections = model.objects[project].kind.collections
        let collection = collections[Int(draw.choose(upTo: UInt64(collections.count - 1)))]
        return .addItem(DeviceName(d), project: Ref(project), collection, code: Int(draw.choose(upTo: 3)),
                        result: Ref(model.objects.count))
    }

    private static let deliveryWeights: [UInt32] = [5, 2, 2, 1]

    /// The items a `kind` step may name on `device`, in index order.
    private func isCandidate(_ model: SyncSpecModel, _ i: Int, _ device: Int, _ kind: Kind) -> Bool {
        let object = model.objects[i]
        guard !object.isProject && model.isPresent(i, on: device) else { return false }
        if kind == .move && !object.collection.isOrdered { return false }
        if kind == .quantity && !object.collection.hasQuantity { return false }
        return true
    }

    /// A candidate whose record another device deleted and pushed, the deletion not yet fetched here.
    private func isDoomed(_ model: SyncSpecModel, _ i: Int, _ device: Int, _ kind: Kind) -> Bool {
        isCandidate(model, i, device, kind) && model.server[i].deleted && model.isPending(i, on: device)
    }

    /// A uniformly drawn candidate: counted in one pass, found in a second (the same choice and result as
    /// indexing the candidate list, without building it).
    ///
    /// The crash class: an edit is drawn, about one time in three, among the items another device deleted
    /// and pushed while this device still holds them (the deletion is pending here), so that the device edits an item
    /// whose record is gone and then pushes (refused) or fetches (the deletion wins, S5).
    private func pickCandidate(_ model: SyncSpecModel, _ device: Int, _ kind: Kind, _ draw: Draw) -> Int? {
        if kind != .remove, draw.chooseBool(probability: 0.35) {
            var doomed = 0
            for i in model.objects.indices where isDoomed(model, i, device, kind) { doomed += 1 }
            if doomed > 0 {
                var k = Int(draw.choose(upTo: UInt64(doomed - 1)))
                for i in model.objects.indices where isDoomed(model, i, device, kind) {
                    if k == 0 { return i }
                    k -= 1
                }
            }
        }
        var count = 0
        for i in model.objects.indices where isCandidate(model, i, device, kind) { count += 1 }
        guard count > 0 else { return nil }
        var k = Int(draw.choose(upTo: UInt64(count - 1)))
        for i in model.objects.indices where isCandidate(model, i, device, kind) {
            if k == 0 { return i }
            k -= 1
        }
        return nil
    }

    /// Every pending change in change order (nil), or reversed (newest first), or in a random
    /// order, or rarely a random part of them in random order: CloudKit delivers relationship
    /// changes out of order and not atomically (R31).
    /// The mode is drawn first, even with nothing pending, so that a shrink that empties the pending list keeps the
    /// later steps' choices in step.
    private func drawDelivery(_ model: SyncSpecModel, _ device: Int, _ draw: Draw) -> [Ref]? {
        let mode = draw.chooseWeighted(Self.deliveryWeights)
        var pending = model.pending(device)
        if mode == 0 || pending.isEmpty { return nil }
        if mode == 1 { return pending.reversed().map { Ref($0) } }
        let count = mode == 2 ? pending.count : 1 + Int(draw.choose(upTo: UInt64(pending.count - 1)))
        var chosen: [Ref] = []
        for _ in 0..<count {
            chosen.append(Ref(pending.remove(at: Int(draw.chooseUniform(upTo: UInt64(pending.count - 1))))))
        }
        return chosen
    }

    /// Whether a command read from a trace applies in `model`.
    func applies(_ command: SyncCommand, _ model: SyncSpecModel) -> Bool {
        func item(_ d: DeviceName, _ ref: Ref) -> SpecObject? {
            guard ref.index < model.objects.count, !model.objects[ref.index].isProject,
                  model.isPresent(ref.index, on: d.index) else { return nil }
            return model.objects[ref.index]
        }
        switch command {
        case .addItem(let d, let project, let collection, let code, let result):
            return project.index < model.objects.count && model.objects[project.index].isProject
                && model.isPresent(project.index, on: d.index)
                && model.objects[project.index].kind.slot(of: collection) != nil
                && (0...3).contains(code) && result.index == model.objects.count
        case .push, .restart: return true
        case .fetch(let d, let deliver):
            guard let deliver else { return true }
            // Every delivered record is pending on the device (`isPending` is membership in `pending`, without
            // building the list) and delivered once.
            for (n, ref) in deliver.enumerated() {
                guard model.isPending(ref.index, on: d.index), !deliver[..<n].contains(ref) else { return false }
            }
            return !deliver.isEmpty
        case .migrate: return model.phase < 3
        case .rollbackReads: return model.phase == 2
        case .removeItem(let d, let ref): return item(d, ref) != nil
        case .moveItem(let d, let ref, let to):
            guard let object = item(d, ref), object.collection.isOrdered else { return false }
            return to >= 0 && to < model.arrayCount(d.index, of: ref.index)
        case .setQuantity(let d, let ref, let quantity):
            guard let object = item(d, ref) else { return false }
            return object.collection.hasQuantity && quantity >= 0
        case .createProject(_, _, let result): return result.index == model.objects.count
        }
    }
}
