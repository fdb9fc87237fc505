import GlassSync
import GraphFuzzEngine
import SyncSpec

/// The `sync` target's state machine: the sync specification and the GlassSync world side by side.
public struct SyncMachine: StateMachine, Sendable {
    public typealias Config = SyncConfig
    public typealias Model = SyncSpecModel
    public typealias System = SyncSystem
    public typealias Command = SyncCommand
    public typealias Observation = SyncObservation

    public let strategy: SyncStrategy
    static let deviceCount = 2

    public init(strategy: SyncStrategy = .production) { self.strategy = strategy }

    public func makeConfig(_ draw: Draw) -> SyncConfig {
        SyncConfig(granularity: SpecGranularity.allCases[Int(draw.choose(upTo: 1))])
    }

    public func makeModel(_ config: SyncConfig) -> SyncSpecModel {
        SyncSpecModel(deviceCount: Self.deviceCount, granularity: config.granularity)
    }

    public func makeSystem(_ config: SyncConfig) throws -> SyncSystem {
        SyncSystem(world: SyncWorld(deviceCount: Self.deviceCount,
                                    granularity: ConflictGranularity(rawValue: config.granularity.rawValue)!,
                                    strategy: strategy, initialProjects: ProjectKind.allCases))
    }

    // MARK: Generation

    private enum Kind: Int { case add, push, fetch, migrate, remove, move, quantity, create, rollback, restart }

    public func nextCommand(_ model: SyncSpecModel, _ draw: Draw) -> SyncCommand? {
        // Phase changes come early (most steps run with entities) and phase 3, which is final, comes late.
        let migrateWeight: UInt32 = [4, 2, 1, 0][model.phase]
        let weights: [UInt32] = [8, 5, 5, migrateWeight, 2, 3, 3, 3, model.phase == 2 ? 2 : 0, 1]
        let kind = Kind(rawValue: draw.chooseWeighted(weights))!
        switch kind {
        case .migrate: if model.phase < 3 { return .migrate }
        case .rollback: if model.phase == 2 { return .rollbackReads }
        default: break
        }
        let d = Int(draw.choose(upTo: UInt64(Self.deviceCount - 1)))
        let device = DeviceName(d)
        switch kind {
        case .push: return .push(device)
        case .fetch: return .fetch(device, deliver: drawDelivery(model, d, draw))
        case .restart: return .restart(device)
        case .create:
            let projectKind = SpecProjectKind(rawValue: Int(draw.choose(upTo: 2)))!
            return .createProject(device, projectKind, result: Ref(model.objects.count))
        case .remove, .move, .quantity:
            let items = candidates(model, d, kind)
            guard !items.isEmpty else { break }
            let item = items[Int(draw.choose(upTo: UInt64(items.count - 1)))]
            switch kind {
            case .remove: return .removeItem(device, item: Ref(item))
            case .move:
                let to = Int(draw.choose(upTo: UInt64(model.arrayCount(d, of: item) - 1)))
                return .moveItem(device, item: Ref(item), to: to)
            default: return .setQuantity(device, item: Ref(item), quantity: 2 + Int(draw.choose(upTo: 3)))
            }
        default: break
        }
        let projects = model.projects(on: d)
        // Oldest first (stable when shrinking deletes a later creation), or the newest project, so
        // that items often go to projects created during the case.
        let project = draw.chooseBool(probability: 0.3) ? projects[projects.count - 1]
            : projects[Int(draw.choose(upTo: UInt64(projects.count - 1)))]
        let collections = model.objects[project].kind.collections
        let collection = collections[Int(draw.choose(upTo: UInt64(collections.count - 1)))]
        return .addItem(device, project: Ref(project), collection, code: Int(draw.choose(upTo: 3)),
                        result: Ref(model.objects.count))
    }

    private func candidates(_ model: SyncSpecModel, _ device: Int, _ kind: Kind) -> [Int] {
        var result: [Int] = []
        for (i, object) in model.objects.enumerated() where !object.isProject && model.isPresent(i, on: device) {
            if kind == .move && !object.collection.isOrdered { continue }
            if kind == .quantity && !object.collection.hasQuantity { continue }
            result.append(i)
        }
        return result
    }

    /// Every pending change in change order (nil), or reversed (newest first), or in a random
    /// order, or rarely a random part of them in random order: CloudKit delivers relationship
    /// changes out of order and not atomically (R31).
    private func drawDelivery(_ model: SyncSpecModel, _ device: Int, _ draw: Draw) -> [Ref]? {
        var pending = model.pending(device)
        guard !pending.isEmpty else { return nil }
        let mode = draw.chooseWeighted([5, 2, 2, 1])
        if mode == 0 { return nil }
        if mode == 1 { return pending.reversed().map { Ref($0) } }
        let count = mode == 2 ? pending.count : 1 + Int(draw.choose(upTo: UInt64(pending.count - 1)))
        var chosen: [Ref] = []
        for _ in 0..<count {
            chosen.append(Ref(pending.remove(at: Int(draw.chooseUniform(upTo: UInt64(pending.count - 1))))))
        }
        return chosen
    }

    public func precondition(_ command: SyncCommand, _ model: SyncSpecModel) -> Bool {
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
            let pending = model.pending(d.index)
            var seen: [Int] = []
            for ref in deliver {
                guard pending.contains(ref.index), !seen.contains(ref.index) else { return false }
                seen.append(ref.index)
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
