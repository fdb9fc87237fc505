import GlassSync
import GraphFuzzEngine
import SyncSpec

extension SyncMachine {
    func predict(_ command: SyncCommand, _ model: inout SyncSpecModel) -> Prediction<SyncObservation> {
        switch command {
        case .addItem(let d, let project, let collection, let code, _):
            return model.predictAddItem(d.index, project: project.index, collection, code: code)
        case .removeItem(let d, let item): return model.predictRemoveItem(d.index, item: item.index)
        case .moveItem(let d, let item, let to): return model.predictMoveItem(d.index, item: item.index, to: to)
        case .setQuantity(let d, let item, let quantity): return model.predictSetQuantity(d.index, item: item.index, quantity)
        case .createProject(let d, let kind, _): return model.predictCreateProject(d.index, kind: kind)
        case .push(let d): return model.predictPush(d.index)
        case .fetch(let d, let deliver): return model.predictFetch(d.index, deliver: deliver?.map(\.index))
        case .migrate: return model.predictMigrate()
        case .rollbackReads: return model.predictRollbackReads()
        case .restart(let d): return model.predictRestart(d.index)
        }
    }

    func perform(_ command: SyncCommand, _ system: inout SyncSystem) throws -> SyncObservation {
        var reads: [SpecCollectionRead] = []
        var mirrors: [SpecCollectionRead]?
        switch command {
        case .addItem(let d, let project, let collection, let code, let result):
            let id = try system.world.addItem(on: d.index, project: system.ids[project.index],
                                              SyncSystem.collection(collection), code: code)
            system.bind(result.index, id)
            system.owners[result.index] = (project.index, collection)
            try system.read(d.index, project.index, collection, into: &reads, &mirrors)
        case .removeItem(let d, let item), .moveItem(let d, let item, _), .setQuantity(let d, let item, _):
            let id = system.ids[item.index]
            let owner = try owner(of: item, system)
            switch command {
            case .removeItem: try system.world.removeItem(on: d.index, item: id)
            case .moveItem(_, _, let to): try system.world.moveItem(on: d.index, item: id, to: to)
            case .setQuantity(_, _, let quantity): try system.world.setQuantity(on: d.index, item: id, quantity)
            default: break
            }
            try system.read(d.index, owner.project, owner.collection, into: &reads, &mirrors)
        case .createProject(let d, let kind, let result):
            let id = try system.world.createProject(on: d.index, kind: SyncSystem.kind(kind))
            system.bind(result.index, id)
            for collection in kind.collections { try system.read(d.index, result.index, collection, into: &reads, &mirrors) }
        case .push(let d):
            try system.world.push(d.index)
            try system.readAll(d.index, into: &reads, &mirrors)
        case .fetch(let d, let deliver):
            try system.world.fetch(d.index, deliver.map { .records($0.map { system.ids[$0.index] }) } ?? .all)
            try system.readAll(d.index, into: &reads, &mirrors)
        case .migrate:
            try system.world.rollOutNextPhase()
            for d in 0..<system.world.deviceCount { try system.readAll(d, into: &reads, &mirrors) }
        case .rollbackReads:
            try system.world.rollbackReads()
            for d in 0..<system.world.deviceCount { try system.readAll(d, into: &reads, &mirrors) }
        case .restart(let d):
            try system.world.restart(d.index)
            try system.readAll(d.index, into: &reads, &mirrors)
        }
        return SyncObservation(reads: reads, mirrors: mirrors)
    }

    /// The project and array an item belongs to, as the harness recorded them at creation.
    private func owner(of item: Ref, _ system: SyncSystem) throws -> (project: Int, collection: SpecCollection) {
        guard item.index < system.owners.count, let origin = system.owners[item.index] else { throw SyncHarnessError.unknownRef(item) }
        return origin
    }
}

/// A harness error: a step names an object the harness never bound.
enum SyncHarnessError: Error, CustomStringConvertible {
    case unknownRef(Ref)
    var description: String {
        switch self { case .unknownRef(let ref): return "\(ref) was never created" }
    }
}
