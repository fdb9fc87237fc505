import GraphFuzzEngine
import GraphSpec

/// Generates the next command from the specification's state, so every command is meaningful there.
/// Every choice comes from `draw`; the simplest option is first everywhere (a create is the simplest step).
struct GraphGenerator {
    let model: GraphModel
    let draw: Draw

    private static let weights: [UInt32] = [8, 3, 5, 6, 4, 4, 4, 3, 2, 4, 1, 1, 2, 3, 1, 2, 2, 1]

    func next() -> GraphCommand {
        switch draw.chooseWeighted(Self.weights) {
        case 1: return insert() ?? create()
        case 2: return relate() ?? create()
        case 3: return .save(context: context())
        case 4: return wishlist() ?? create()
        case 5: return owned() ?? create()
        case 6: return delete() ?? create()
        case 7: return read() ?? create()
        case 8: return pick(live()).map { .state(Ref($0)) } ?? create()
        case 9: return set() ?? create()
        case 10: return unrelate() ?? create()
        case 11: return .rollback(context: context())
        case 12: return pick(live()).map { .holdID(Ref($0)) } ?? create()
        case 13: return lookup() ?? create()
        case 14: return .fetchTitle(context: context(), variant: Int(draw.choose(upTo: 2)))
        case 15: return acquire() ?? create()
        case 16: return pick(refs(of: BooksEntities.work)).map { .userEntry(Ref($0)) } ?? create()
        case 17: return pick(refs(of: BooksEntities.entry)).map { .validate(Ref($0)) } ?? create()
        default: return create()
        }
    }

    private var nextRef: Ref { Ref(model.refs.count) }

    /// Context 0 mostly.
    private func context() -> Int { draw.chooseWeighted([6, 1]) }

    private func pick(_ candidates: [Int]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        return candidates[Int(draw.choose(upTo: UInt64(candidates.count - 1)))]
    }

    /// References bound to a model.
    private func live() -> [Int] { model.refs.indices.filter { model.refs[$0] >= 0 } }

    private func refs(of entity: Int) -> [Int] {
        model.refs.indices.filter { model.refs[$0] >= 0 && model.objects[model.refs[$0]].entity == entity }
    }

    private func entity(_ ref: Int) -> Int { model.objects[model.refs[ref]].entity }
    private func objectContext(_ ref: Int) -> Int { model.objects[model.refs[ref]].context }

    private func create() -> GraphCommand {
        let entity = draw.chooseWeighted([4, 3, 2, 1])
        let variant = draw.chooseWeighted([6, 2, 2])
        let context = [0, -1, 1][draw.chooseWeighted([5, 2, 1])]
        return .create(result: nextRef, entity: entity, variant: variant, context: context)
    }

    private func insert() -> GraphCommand? {
        let anyModel = draw.chooseBool(probability: 0.1)
        let candidates = anyModel ? live() : live().filter { model.objects[model.refs[$0]].lifecycle == .new }
        guard let ref = pick(candidates) else { return nil }
        return .insert(Ref(ref), context: context())
    }

    /// A context for a domain operation on `ref`: its own mostly, else the other.
    private func domainContext(_ ref: Int) -> Int {
        let own = max(0, objectContext(ref))
        return draw.chooseWeighted([8, 1]) == 0 ? own : 1 - own
    }

    private func relate() -> GraphCommand? {
        guard let source = pick(live()) else { return nil }
        let relationships = model.entities[entity(source)].relationships
        let r = Int(draw.choose(upTo: UInt64(relationships.count - 1)))
        let sameContext = draw.chooseBool(probability: 0.85)
        let sourceContext = objectContext(source)
        let targets = refs(of: relationships[r].destination).filter {
            !sameContext || objectContext($0) == sourceContext || objectContext($0) < 0
        }
        guard let target = pick(targets) else { return nil }
        return .relate(Ref(source), relationship: r, target: Ref(target))
    }

    private func unrelate() -> GraphCommand? {
        guard let source = pick(live()) else { return nil }
        let object = model.objects[model.refs[source]]
        let r = Int(draw.choose(upTo: UInt64(object.links.count - 1)))
        let targets = object.links[r].compactMap { o in model.refs.firstIndex(of: o) }
        guard let target = pick(targets) else { return nil }
        return .unrelate(Ref(source), relationship: r, target: Ref(target))
    }

    private func set() -> GraphCommand? {
        guard let ref = pick(live()) else { return nil }
        let settable = BooksEntities.settable(entity(ref))
        let slot = Int(draw.choose(upTo: UInt64(settable.count - 1)))
        let variant = draw.chooseWeighted(settable[slot].pool.count == 3 ? [5, 3, 2] : [5, 3])
        return .set(Ref(ref), slot: slot, variant: variant)
    }

    private func delete() -> GraphCommand? {
        pick(live().filter { objectContext($0) >= 0 }).map { .delete(Ref($0)) }
    }

    private func read() -> GraphCommand? {
        guard let ref = pick(live()) else { return nil }
        let shape = model.entities[entity(ref)]
        let property = Int(draw.choose(upTo: UInt64(shape.attributes.count + shape.relationships.count - 1)))
        return .read(Ref(ref), property: property)
    }

    private func lookup() -> GraphCommand? {
        guard let h = pick(model.held.indices.filter { model.held[$0] != nil }) else { return nil }
        let context = Int(draw.choose(upTo: 1))
        let method = LookupMethod.allCases[Int(draw.choose(upTo: 2))]
        return .lookup(result: nextRef, held: h, context: context, method: method)
    }

    private func wishlist() -> GraphCommand? {
        guard let work = pick(refs(of: BooksEntities.work)) else { return nil }
        return .wishlist(result: nextRef, work: Ref(work), context: domainContext(work))
    }

    private func owned() -> GraphCommand? {
        guard let work = pick(refs(of: BooksEntities.work)), let edition = pick(refs(of: BooksEntities.edition)) else { return nil }
        return .owned(result: nextRef, work: Ref(work), edition: Ref(edition), context: domainContext(work))
    }

    private func acquire() -> GraphCommand? {
        guard let entry = pick(refs(of: BooksEntities.entry)), let edition = pick(refs(of: BooksEntities.edition)) else { return nil }
        return .acquire(Ref(entry), edition: Ref(edition))
    }
}
