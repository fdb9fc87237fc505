import GraphFuzzEngine

extension GraphModel {
    /// Whether `command` may run in this state: its references exist and fit, a result is the next reference.
    public func allows(_ command: GraphCommand) -> Bool {
        if crashed { return false }
        if let result = command.result, result.index != refs.count { return false }
        func entity(_ ref: Ref) -> Int? { object(ref.index).map { objects[$0].entity } }
        switch command {
        case let .create(_, e, variant, context, unique):
            return entities.indices.contains(e) && (0...2).contains(variant) && (-1...1).contains(context) && (0...2).contains(unique)
        case let .insert(ref, context):
            return entity(ref) != nil && (0...1).contains(context)
        case let .relate(ref, r, target), let .unrelate(ref, r, target):
            guard let e = entity(ref), let t = entity(target), r < entities[e].relationships.count else { return false }
            return entities[e].relationships[r].destination == t
        case let .set(ref, slot, variant):
            guard let e = entity(ref) else { return false }
            return slot < schema.settable[e].count && variant < schema.settable[e][slot].values.count
        case let .delete(ref):
            guard let o = object(ref.index) else { return false }
            return objects[o].context >= 0
        case .save(let c), .rollback(let c):
            return (0...1).contains(c)
        case let .holdID(ref), let .state(ref):
            return entity(ref) != nil
        case let .lookup(_, h, c, _):
            return h < held.count && held[h].id != nil && (0...1).contains(c)
        case let .read(ref, p):
            guard let e = entity(ref) else { return false }
            return p < entities[e].attributes.count + entities[e].relationships.count
        case let .fetch(c, e, a, _):
            return (0...1).contains(c) && entities.indices.contains(e) && entities[e].attributes.indices.contains(a)
        case .relaunch:
            return !hasTangledNewModel
        case let .killedSave(c, back):
            return (0...1).contains(c) && back >= 0 && killable(c)
        }
    }

    /// The specification's step: the observation `command` must make, each part under the rule that decides it.
    /// `save` is the save a `save` or `killedSave` step makes (the store's; an app may wrap it).
    public mutating func predict(_ command: GraphCommand,
                                 save: (inout GraphModel, Int) -> Prediction<GraphObservation> = { $0.storeSave($1) }) -> Prediction<GraphObservation> {
        let prediction = step(command, save: save)
        if prediction.value.isTrap { crashed = true }
        return prediction
    }

    private mutating func step(_ command: GraphCommand, save: (inout GraphModel, Int) -> Prediction<GraphObservation>) -> Prediction<GraphObservation> {
        switch command {
        case let .create(result, entity, variant, context, unique):
            let o = newObject(entity)
            if let pool = schema.createPools[entity] { objects[o].values[pool.attribute] = pool.values[variant] }
            for pool in schema.uniquePools[entity] { objects[o].values[pool.attribute] = pool.values[unique] }
            bind(result.index, o)
            // G1: a model never inserted has no identifier; G2: an inserted one a temporary identifier.
            if context < 0 { return Prediction(.identifier(kind(objects[o].id)), rule: GraphRules.newModel) }
            insertGraph(o, context)
            return Prediction(.identifier(kind(objects[o].id)), rule: GraphRules.temporaryID)
        case let .insert(ref, context):
            let o = refs[ref.index]
            let graph = newGraph(from: o).count
            if let trap = insert(o, context) { return trap.prediction }
            // G2: the model's temporary identifier; G4: the new models it reaches are inserted with it.
            return Prediction(.inserted(kind(objects[o].id), models: graph), rule: GraphRules.temporaryID)
                .part(GraphObservation.insertedLabel, rule: GraphRules.insertGraph)
        case let .relate(ref, r, target):
            let (o, t) = (refs[ref.index], refs[target.index])
            if let trap = relate(o, r, t) { return trap.prediction }
            return related(o, r, t)
        case let .unrelate(ref, r, target):
            let (o, t) = (refs[ref.index], refs[target.index])
            if let trap = unrelate(o, r, t) { return trap.prediction }
            return related(o, r, t)
        case let .set(ref, slot, variant):
            let o = refs[ref.index]
            let pool = schema.settable[objects[o].entity][slot]
            if let trap = setValue(o, pool.attribute, pool.values[variant]) { return trap.prediction }
            return Prediction(.none, rule: GraphRules.attributeReadBack)
        case let .delete(ref):
            let o = refs[ref.index], c = objects[o].context
            if let trap = delete(o) { return trap.prediction }
            return Prediction(.deleted(pending: objects(in: c) { $0.deleted }.count, referencedBy: referencedBy(o)), rule: GraphRules.deleteMarks)
        case let .save(c):
            return save(&self, c)
        case let .rollback(c):
            rollback(c)
            return Prediction(.none, rule: GraphRules.rollback)
        case let .holdID(ref):
            let id = objects[refs[ref.index]].id
            held.append(HeldID(id: id, launch: launch))
            return Prediction(.identifier(kind(id)), rule: GraphRules.temporaryID)
        case let .lookup(result, h, c, method):
            return lookup(result, held[h], c, method)
        case let .read(ref, p):
            let o = refs[ref.index]
            if let trap = readTrap(o) { return trap.prediction }
            let attributeCount = entities[objects[o].entity].attributes.count
            if p < attributeCount { return Prediction(.value(objects[o].values[p]), rule: GraphRules.attributeReadBack) }
            return Prediction(.objects(objects[o].links[p - attributeCount].map(name).sorted()), rule: linkRule(o, p - attributeCount))
        case let .state(ref):
            let object = objects[refs[ref.index]]
            return Prediction(.state(context: object.context, lifecycle: object.lifecycle.rawValue, deleted: object.deleted,
                                     changes: object.hasChanges), rule: GraphRules.deleteMarks)
        case let .fetch(c, entity, attribute, value):
            let found = fetch(entity: entity, attribute: attribute, equals: value, c)
            return Prediction(.objects(found.map(name).sorted()), rule: GraphRules.fetchReadsStore)
        case .relaunch:
            return relaunch()
        case let .killedSave(c, _):
            return killedSave(c, save: save)
        }
    }

    /// G14–G16 by method; G3 for a temporary identifier held across its save; G23 and G24 for an identifier held
    /// in an earlier launch of the store.
    mutating func lookup(_ result: Ref, _ held: HeldID, _ c: Int, _ method: LookupMethod) -> Prediction<GraphObservation> {
        let id = held.id!
        let (found, methodRule): (Int?, String)
        switch method {
        case .model: (found, methodRule) = (modelFor(id, c), GraphRules.modelForNeverNil)
        case .registered: (found, methodRule) = (registeredModel(id, c), GraphRules.registeredModel)
        case .fetch: (found, methodRule) = (fetchByID(id, c), GraphRules.fetchReadsStore)
        }
        let rule = held.launch < launch ? (id.permanent ? GraphRules.permanentAcrossRelaunch : GraphRules.temporaryAcrossRelaunch)
            : id.permanent ? methodRule : GraphRules.heldTemporaryID
        let same = found.flatMap { o in refs.firstIndex(of: o) } ?? -1
        bind(result.index, found ?? -1)
        guard let o = found else { return Prediction(.notFound, rule: rule) }
        return Prediction(.found(name(o), sameAs: same, context: objects[o].context, lifecycle: objects[o].lifecycle.rawValue), rule: rule)
    }

    /// G8: how many of `o`'s partners (with backing data, and readable: G18) still hold the pair back to `o`.
    func referencedBy(_ o: Int) -> Int {
        objects[o].links.indices.reduce(0) { count, r in
            guard let inverse = relationship(o, r).inverse else { return count }
            return count + objects[o].links[r].filter { readTrap($0) == nil && objects[$0].links[inverse].contains(o) }.count
        }
    }
}
