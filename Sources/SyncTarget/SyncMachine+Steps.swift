import GlassSync
import GraphFuzzEngine
import SyncSpec

extension SyncMachine {
    private func observe(_ model: SyncSpecModel, _ reads: [SpecCollectionRead]) -> SyncObservation {
        SyncObservation(reads: reads, mirrors: model.isDualWrite ? reads : nil)
    }

    private func all(_ model: SyncSpecModel, _ devices: [Int]) -> [SpecCollectionRead] {
        devices.flatMap { model.readAll($0) }
    }

    func predict(_ command: SyncCommand, _ model: inout SyncSpecModel) -> Prediction<SyncObservation> {
        let editRule = model.isDualWrite ? SyncRules.dualWriteAgreement : SyncRules.localEditsPersist
        switch command {
        case .addItem(let d, let project, let collection, let code, _):
            _ = model.addItem(d.index, project: project.index, collection, code: code)
            return Prediction(observe(model, [model.read(d.index, project.index, collection)]), rule: editRule)
        case .removeItem(let d, let item), .moveItem(let d, let item, _), .setQuantity(let d, let item, _):
            let object = model.objects[item.index]
            switch command {
            case .removeItem: model.removeItem(d.index, item: item.index)
            case .moveItem(_, _, let to): model.moveItem(d.index, item: item.index, to: to)
            case .setQuantity(_, _, let quantity): model.setQuantity(d.index, item: item.index, quantity)
            default: break
            }
            return Prediction(observe(model, [model.read(d.index, Int(object.owner), object.collection)]), rule: editRule)
        case .createProject(let d, let kind, _):
            let p = model.createProject(d.index, kind: kind)
            return Prediction(observe(model, kind.collections.map { model.read(d.index, p, $0) }), rule: editRule)
        case .push(let d):
            // A push observes the device's arrays afterwards: an item the server refused (deleted there) is gone (S5).
            let refused = model.push(d.index)
            return Prediction(observe(model, model.readAll(d.index)), rule: refused ? SyncRules.deletionWins : SyncRules.lastWriterWins)
        case .fetch(let d, let deliver):
            let effects = model.fetch(d.index, deliver: deliver?.map(\.index))
            let merge: String
            if effects.deletion { merge = SyncRules.deletionWins }
            else if effects.overwrite { merge = SyncRules.lastWriterWins }
            else { merge = SyncRules.concurrentAdditionsSurvive }
            if model.phase == 0 { return Prediction(observe(model, model.readAll(d.index)), rule: SyncRules.blobLosesUpdate) }
            guard effects.orphan else { return Prediction(observe(model, model.readAll(d.index)), rule: merge) }
            // S7 decides the arrays of the projects items waited for; the merge rule decides the others.
            var observation = observe(model, model.readAll(d.index))
            observation.orphanProjects = effects.orphanProjects.map { Int32($0) }
            return Prediction(observation, rule: SyncRules.orphanWaits, alsoDecided: [merge])
        case .migrate:
            model.rollOutNextPhase()
            return Prediction(observe(model, all(model, Array(0..<model.deviceCount))), rule: SyncRules.migrationKeepsItems)
        case .rollbackReads:
            model.rollbackReads()
            return Prediction(observe(model, all(model, Array(0..<model.deviceCount))), rule: SyncRules.rollbackLosesNothing)
        case .restart(let d):
            return Prediction(observe(model, model.readAll(d.index)), rule: SyncRules.localEditsPersist)
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

    /// The rule of an observation the prediction does not allow, chosen by what differs; nil when the rules
    /// allow it after all (another order of items placed concurrently).
    func compare(_ expected: Prediction<SyncObservation>, _ observed: SyncObservation, _ step: TraceStep) -> Failure? {
        if expected.allows(observed) || expected.value.admits(observed) { return nil }
        let mirrorOnly = expected.value.admitsReads(observed.reads)
        var rule = mirrorOnly && expected.rule != SyncRules.migrationKeepsItems && expected.rule != SyncRules.rollbackLosesNothing
            ? SyncRules.dualWriteAgreement : expected.rule
        if !mirrorOnly, rule == SyncRules.orphanWaits, let merge = expected.alsoDecided.first,
           let differing = Self.firstDifferingProject(expected: expected.value.reads, observed: observed.reads),
           !expected.value.orphanProjects.contains(differing) {
            rule = merge
        }
        if !mirrorOnly, [SyncRules.concurrentAdditionsSurvive, SyncRules.deletionWins, SyncRules.lastWriterWins].contains(rule) {
            rule = Self.mergeRule(expected: expected.value.reads, observed: observed.reads, deletionWon: rule == SyncRules.deletionWins)
        }
        return Failure(rule: rule, kind: .mismatch,
                       message: "\(step): expected \(expected.value), observed \(observed)")
    }
}

extension SyncMachine {
    /// The project of the first array whose expected and observed reads differ (nil when none does).
    static func firstDifferingProject(expected: [SpecCollectionRead], observed: [SpecCollectionRead]) -> Int32? {
        for read in expected {
            let seen = observed.first { $0.device == read.device && $0.project == read.project && $0.collection == read.collection }
            if !(seen.map(read.admits) ?? false) { return read.project }
        }
        return observed.first { read in !expected.contains { $0.device == read.device && $0.project == read.project && $0.collection == read.collection } }?.project
    }

    /// Names the merge rule a fetch broke by what differs: an item that should be gone still shown where the
    /// fetch brought a deletion over local edits (`deletionWon`: the deletion lost, S5); otherwise an addition,
    /// deletion, quantity or position of another item missing (an independent concurrent edit lost, S4). A
    /// same-record conflict (S6) never changes membership, and production merges it exactly as the
    /// specification does.
    static func mergeRule(expected: [SpecCollectionRead], observed: [SpecCollectionRead], deletionWon: Bool) -> String {
        guard deletionWon else { return SyncRules.concurrentAdditionsSurvive }
        var extra = false
        for read in expected {
            let seen = observed.first { $0.device == read.device && $0.project == read.project && $0.collection == read.collection }
            let seenItems = seen?.items.map(\.item) ?? []
            if seenItems.contains(where: { item in !read.items.contains { $0.item == item } }) { extra = true }
        }
        return extra ? SyncRules.deletionWins : SyncRules.concurrentAdditionsSurvive
    }
}

/// A harness error: a step names an object the harness never bound.
enum SyncHarnessError: Error, CustomStringConvertible {
    case unknownRef(Ref)
    var description: String {
        switch self { case .unknownRef(let ref): return "\(ref) was never created" }
    }
}
