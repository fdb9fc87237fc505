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
        case 8: return pickLive().map { .state(Ref($0)) } ?? create()
        case 9: return set() ?? create()
        case 10: return unrelate() ?? create()
        case 11: return .rollback(context: context())
        case 12: return pickLive().map { .holdID(Ref($0)) } ?? create()
        case 13: return lookup() ?? create()
        case 14: return .fetchTitle(context: context(), variant: Int(draw.choose(upTo: 2)))
        case 15: return acquire() ?? create()
        case 16: return pick(entity: BooksEntities.work).map { .userEntry(Ref($0)) } ?? create()
        case 17: return pick(entity: BooksEntities.entry).map { .validate(Ref($0)) } ?? create()
        default: return create()
        }
    }

    private var nextRef: Ref { Ref(model.refs.count) }

    /// Context 0 mostly.
    private func context() -> Int { draw.chooseWeighted(Self.contextWeights) }

    private static let contextWeights: [UInt32] = [6, 1]
    private static let entityWeights: [UInt32] = [4, 3, 2, 1]
    private static let variantWeights: [UInt32] = [6, 2, 2]
    private static let createContextWeights: [UInt32] = [5, 2, 1]
    private static let createContexts = [0, -1, 1]
    private static let ownContextWeights: [UInt32] = [8, 1]
    private static let threeValueWeights: [UInt32] = [5, 3, 2]
    private static let twoValueWeights: [UInt32] = [5, 3]

    private func pick(_ candidates: [Int]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        return candidates[Int(draw.choose(upTo: UInt64(candidates.count - 1)))]
    }

    /// The reference `pick` would choose from the references (in order) that satisfy `include`, without building
    /// the candidate list: one pass counts them, the same draw picks the k-th, a second pass finds it. Same choices
    /// and same result as `pick(model.refs.indices.filter(include))`.
    @inline(__always)
    private func pick(where include: (Int) -> Bool) -> Int? { pick(in: model.refs.count, where: include) }

    /// `pick(Array((0..<count).filter(include)))` without the arrays.
    @inline(__always)
    private func pick(in count: Int, where include: (Int) -> Bool) -> Int? {
        var matches = 0
        for r in 0..<count where include(r) { matches += 1 }
        guard matches > 0 else { return nil }
        var k = Int(draw.choose(upTo: UInt64(matches - 1)))
        for r in 0..<count where include(r) {
            if k == 0 { return r }
            k -= 1
        }
        return nil
    }

    /// A reference bound to a model.
    private func pickLive() -> Int? { pick { model.refs[$0] >= 0 } }

    /// A reference bound to a model of `entity`.
    private func pick(entity: Int) -> Int? {
        pick { model.refs[$0] >= 0 && model.objects[model.refs[$0]].entity == entity }
    }

    private func entity(_ ref: Int) -> Int { model.objects[model.refs[ref]].entity }
    private func objectContext(_ ref: Int) -> Int { model.objects[model.refs[ref]].context }

    private func create() -> GraphCommand {
        let entity = draw.chooseWeighted(Self.entityWeights)
        let variant = draw.chooseWeighted(Self.variantWeights)
        let context = Self.createContexts[draw.chooseWeighted(Self.createContextWeights)]
        return .create(result: nextRef, entity: entity, variant: variant, context: context)
    }

    private func insert() -> GraphCommand? {
        let anyModel = draw.chooseBool(probability: 0.1)
        let found = anyModel ? pickLive() : pick { model.refs[$0] >= 0 && model.objects[model.refs[$0]].lifecycle == .new }
        guard let ref = found else { return nil }
        return .insert(Ref(ref), context: context())
    }

    /// A context for a domain operation on `ref`: its own mostly, else the other.
    private func domainContext(_ ref: Int) -> Int {
        let own = max(0, objectContext(ref))
        return draw.chooseWeighted(Self.ownContextWeights) == 0 ? own : 1 - own
    }

    private func relate() -> GraphCommand? {
        guard let source = pickLive() else { return nil }
        let relationships = model.entities[entity(source)].relationships
        let r = Int(draw.choose(upTo: UInt64(relationships.count - 1)))
        let sameContext = draw.chooseBool(probability: 0.85)
        let sourceContext = objectContext(source)
        let destination = relationships[r].destination
        let found = pick {
            guard model.refs[$0] >= 0 else { return false }
            let o = model.refs[$0]
            guard model.objects[o].entity == destination else { return false }
            let context = model.objects[o].context
            return !sameContext || context == sourceContext || context < 0
        }
        guard let target = found else { return nil }
        return .relate(Ref(source), relationship: r, target: Ref(target))
    }

    private func unrelate() -> GraphCommand? {
        guard let source = pickLive() else { return nil }
        let object = model.objects[model.refs[source]]
        let r = Int(draw.choose(upTo: UInt64(object.links.count - 1)))
        let targets = object.links[r].compactMap { o in model.refs.firstIndex(of: o) }
        guard let target = pick(targets) else { return nil }
        return .unrelate(Ref(source), relationship: r, target: Ref(target))
    }

    private func set() -> GraphCommand? {
        guard let ref = pickLive() else { return nil }
        let settable = BooksEntities.settable(entity(ref))
        let slot = Int(draw.choose(upTo: UInt64(settable.count - 1)))
        let variant = draw.chooseWeighted(settable[slot].pool.count == 3 ? Self.threeValueWeights : Self.twoValueWeights)
        return .set(Ref(ref), slot: slot, variant: variant)
    }

    private func delete() -> GraphCommand? {
        pick { model.refs[$0] >= 0 && objectContext($0) >= 0 }.map { .delete(Ref($0)) }
    }

    private func read() -> GraphCommand? {
        guard let ref = pickLive() else { return nil }
        let shape = model.entities[entity(ref)]
        let property = Int(draw.choose(upTo: UInt64(shape.attributes.count + shape.relationships.count - 1)))
        return .read(Ref(ref), property: property)
    }

    private func lookup() -> GraphCommand? {
        guard let h = pick(in: model.held.count, where: { model.held[$0] != nil }) else { return nil }
        let context = Int(draw.choose(upTo: 1))
        let method = LookupMethod.allCases[Int(draw.choose(upTo: 2))]
        return .lookup(result: nextRef, held: h, context: context, method: method)
    }

    private func wishlist() -> GraphCommand? {
        guard let work = pick(entity: BooksEntities.work) else { return nil }
        return .wishlist(result: nextRef, work: Ref(work), context: domainContext(work))
    }

    private func owned() -> GraphCommand? {
        guard let work = pick(entity: BooksEntities.work), let edition = pick(entity: BooksEntities.edition) else { return nil }
        return .owned(result: nextRef, work: Ref(work), edition: Ref(edition), context: domainContext(work))
    }

    private func acquire() -> GraphCommand? {
        guard let entry = pick(entity: BooksEntities.entry), let edition = pick(entity: BooksEntities.edition) else { return nil }
        return .acquire(Ref(entry), edition: Ref(edition))
    }
}
