import GraphFuzzEngine

extension GraphModel {
    /// Whether `command` may run in this state: its references exist and fit, a result is the next reference.
    public func allows(_ command: GraphCommand) -> Bool {
        if crashed { return false }
        if let result = command.result, result.index != refs.count { return false }
        func entity(_ ref: Ref) -> Int? { object(ref.index).map { objects[$0].entity } }
        switch command {
        case let .create(_, e, variant, context):
            return (0..<4).contains(e) && (0...2).contains(variant) && (-1...1).contains(context)
        case let .insert(ref, context):
            return entity(ref) != nil && (0...1).contains(context)
        case let .relate(ref, r, target), let .unrelate(ref, r, target):
            guard let e = entity(ref), let t = entity(target), r < entities[e].relationships.count else { return false }
            return entities[e].relationships[r].destination == t
        case let .set(ref, slot, variant):
            guard let e = entity(ref) else { return false }
            let settable = BooksEntities.settable(e)
            return slot < settable.count && variant < settable[slot].pool.count
        case let .delete(ref):
            guard let o = object(ref.index) else { return false }
            return objects[o].context >= 0
        case .save(let c), .rollback(let c):
            return (0...1).contains(c)
        case let .holdID(ref), let .state(ref):
            return entity(ref) != nil
        case let .lookup(_, h, c, _):
            return h < held.count && held[h] != nil && (0...1).contains(c)
        case let .read(ref, p):
            guard let e = entity(ref) else { return false }
            return p < entities[e].attributes.count + entities[e].relationships.count
        case let .fetchTitle(c, v):
            return (0...1).contains(c) && (0...2).contains(v)
        case let .wishlist(_, w, c):
            return entity(w) == BooksEntities.work && (0...1).contains(c)
        case let .owned(_, w, ed, c):
            return entity(w) == BooksEntities.work && entity(ed) == BooksEntities.edition && (0...1).contains(c)
        case let .acquire(e, ed):
            return entity(e) == BooksEntities.entry && entity(ed) == BooksEntities.edition
        case let .userEntry(w):
            return entity(w) == BooksEntities.work
        case let .validate(e):
            return entity(e) == BooksEntities.entry
        case .relaunch, .killedSave:
            return allowsLaunch(command)
        }
    }

    /// Steps the specification: the observation `command` must make and the rule that decides it.
    public mutating func step(_ command: GraphCommand) -> (GraphObservation, String) {
        checkRows = false
        cascadedFromWork = false
        deleteRulesTouched = []
        alsoDecided = []
        numberedByLastSave = []
        relaunchedNow = false
        let (observation, rule) = predict(command)
        if observation.isTrap { crashed = true }
        return (observation, rule)
    }

    /// G7: how many models the target's inverse of relationship `r` holds (-1 without an inverse).
    func inverseCount(_ o: Int, _ r: Int, _ t: Int) -> Int {
        relationship(o, r).inverse.map { objects[t].links[$0].count } ?? -1
    }

    /// The rule deciding what relating or unrelating `o` and `t` by `r` observes: G7, unless the pair is half
    /// there (one side holds it, the other not). Only a failed save's delete rules leave that, pending (G9:
    /// nullify removed the deleted model from its partner, the deleted model kept its own side): then they
    /// decided it — B4 for an entry and its edition (the local schema's deny keeps the entry's side), else G9.
    func pairRule(_ o: Int, _ r: Int, _ t: Int) -> String {
        guard let inverse = relationship(o, r).inverse,
              objects[o].links[r].contains(t) != objects[t].links[inverse].contains(o) else { return GraphRules.inverses }
        let entryEdition = objects[o].entity == BooksEntities.entry ? r == BooksEntities.entryEdition
            : objects[o].entity == BooksEntities.edition && r == BooksEntities.editionEntries
        return entryEdition ? GraphRules.ownedKeepsEdition : GraphRules.deleteRulesAtSave
    }

    /// G8: how many of `o`'s partners (with backing data) still hold the pair back to `o`.
    func referencedBy(_ o: Int) -> Int {
        objects[o].links.indices.reduce(0) { count, r in
            guard let inverse = relationship(o, r).inverse else { return count }
            return count + objects[o].links[r].filter { objects[$0].lifecycle != .invalidated && objects[$0].links[inverse].contains(o) }.count
        }
    }

    /// The rule a trap breaks: G5 a second insert, G6 a cross-context relationship, G17 a lost row, G18 a change
    /// to a model whose deletion was saved.
    private static func trapped(_ code: TrapCode) -> (GraphObservation, String) {
        switch code {
        case .duplicateRegistration, .insertIntoSecondContext: return (.trap(code.rawValue), GraphRules.duplicateInsert)
        case .crossContextRelationship: return (.trap(code.rawValue), GraphRules.crossContextLink)
        case .invalidatedBackingData: return (.trap(code.rawValue), GraphRules.foreignDeleteInvalidates)
        case .mutatingDeletedModel: return (.trap(code.rawValue), GraphRules.savedDeleteDetaches)
        }
    }

    /// The rule a save step's outcome is decided by.
    private mutating func saveRule(_ observation: GraphObservation) -> String {
        switch observation {
        case .trap: return GraphRules.foreignDeleteInvalidates
        case .refused(let issues):
            (lastSave, checkRows) = (.failed, true)
            return issues.contains("editionInUse") ? GraphRules.ownedKeepsEdition : GraphRules.libraryValidates
        case .saveFailed(_, let issues):
            (lastSave, checkRows) = (.failed, true)
            let denied = issues.filter { $0.code == 1600 }
            if denied.contains(where: { $0.entity == "Edition" && $0.key == "userLibraryEntries" }) { return GraphRules.ownedKeepsEdition }
            return denied.isEmpty ? GraphRules.validation : GraphRules.denyDelete
        default:
            (lastSave, checkRows) = (.saved, true)
            return GraphRules.savedSnapshot
        }
    }

    private mutating func predict(_ command: GraphCommand) -> (GraphObservation, String) {
        switch command {
        case let .create(result, entity, variant, context):
            let o = newObject(entity)
            let pool = BooksEntities.createPool(entity)
            objects[o].values[pool.attribute] = pool.pool[variant]
            bind(result.index, o)
            if context < 0 { return (.identifier(kind(objects[o].id)), GraphRules.newModel) }
            insertGraph(o, context)
            return (.identifier(kind(objects[o].id)), GraphRules.temporaryID)
        case let .insert(ref, context):
            if let trap = insert(refs[ref.index], context) { return Self.trapped(trap) }
            return (.identifier(kind(objects[refs[ref.index]].id)), GraphRules.temporaryID)
        case let .relate(ref, r, target):
            let rule = pairRule(refs[ref.index], r, refs[target.index])
            if let trap = relate(refs[ref.index], r, refs[target.index]) { return Self.trapped(trap) }
            return (.related(inverse: inverseCount(refs[ref.index], r, refs[target.index])), rule)
        case let .unrelate(ref, r, target):
            let rule = pairRule(refs[ref.index], r, refs[target.index])
            if let trap = unrelate(refs[ref.index], r, refs[target.index]) { return Self.trapped(trap) }
            return (.related(inverse: inverseCount(refs[ref.index], r, refs[target.index])), rule)
        case let .set(ref, slot, variant):
            let o = refs[ref.index]
            let settable = BooksEntities.settable(objects[o].entity)[slot]
            if let trap = setValue(o, settable.attribute, settable.pool[variant]) { return Self.trapped(trap) }
            return (.none, GraphRules.attributeReadBack)
        case let .delete(ref):
            let o = refs[ref.index], c = objects[o].context
            if let trap = delete(o) { return Self.trapped(trap) }
            return (.deleted(pending: objects(in: c) { $0.deleted }.count, referencedBy: referencedBy(o)), GraphRules.deleteMarks)
        case let .save(c):
            let observation = librarySave(c)
            return (observation, saveRule(observation))
        case let .rollback(c):
            rollback(c)
            return (.none, GraphRules.rollback)
        case let .holdID(ref):
            let id = objects[refs[ref.index]].id
            held.append(id)
            return (.identifier(kind(id)), GraphRules.temporaryID)
        case let .lookup(result, h, c, method):
            let id = held[h]!
            let (found, rule): (Int?, String)
            switch method {
            case .model: (found, rule) = (modelFor(id, c), GraphRules.modelForNeverNil)
            case .registered: (found, rule) = (registeredModel(id, c), GraphRules.registeredModel)
            case .fetch: (found, rule) = (fetchByID(id, c), GraphRules.fetchReadsStore)
            }
            let decidedBy = id.permanent ? rule : GraphRules.heldTemporaryID
            let same = found.flatMap { o in refs.firstIndex(of: o) } ?? -1
            bind(result.index, found ?? -1)
            guard let o = found else { return (.notFound, decidedBy) }
            return (.found(name(o), sameAs: same, context: objects[o].context, lifecycle: objects[o].lifecycle.rawValue), decidedBy)
        case let .read(ref, p):
            let o = refs[ref.index]
            if let trap = readTrap(o) {
                return (.trap(trap.rawValue), objects[o].context < 0 ? GraphRules.modelForNeverNil : GraphRules.foreignDeleteInvalidates)
            }
            let attributeCount = entities[objects[o].entity].attributes.count
            if p < attributeCount { return (.value(objects[o].values[p]), GraphRules.attributeReadBack) }
            return (.objects(objects[o].links[p - attributeCount].map(name).sorted()), GraphRules.inverses)
        case let .state(ref):
            let object = objects[refs[ref.index]]
            return (.state(context: object.context, lifecycle: object.lifecycle.rawValue, deleted: object.deleted,
                           changes: object.hasChanges), GraphRules.deleteMarks)
        case let .fetchTitle(c, v):
            let found = fetch(entity: BooksEntities.work, attribute: BooksEntities.workTitle, equals: BooksEntities.titles[v], c)
            return (.objects(found.map(name).sorted()), GraphRules.fetchReadsStore)
        case let .wishlist(result, w, c):
            return (createEntry(result: result.index, work: refs[w.index], edition: nil, context: c), GraphRules.insertBeforeRelate)
        case let .owned(result, w, ed, c):
            return (createEntry(result: result.index, work: refs[w.index], edition: refs[ed.index], context: c), GraphRules.insertBeforeRelate)
        case let .acquire(e, ed):
            // The edition's side of the pair is G7's, or the delete rules' of a failed save (`pairRule`).
            let pair = pairRule(refs[e.index], BooksEntities.entryEdition, refs[ed.index])
            return (acquire(refs[e.index], refs[ed.index]), pair == GraphRules.inverses ? GraphRules.acquire : pair)
        case let .userEntry(w):
            return (userEntry(refs[w.index]), GraphRules.userEntry)
        case let .validate(e):
            switch validateEntry(refs[e.index]) {
            case .failure(let trap): return (.trap(trap.rawValue), GraphRules.libraryValidates)
            case .success(let issue): return (.validation(issue), GraphRules.libraryValidates)
            }
        case .relaunch, .killedSave:
            return predictLaunch(command)
        }
    }
}
