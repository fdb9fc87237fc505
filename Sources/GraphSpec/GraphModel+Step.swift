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
        }
    }

    /// Steps the specification: the observation `command` must make and the rule that decides it.
    public mutating func step(_ command: GraphCommand) -> (GraphObservation, String) {
        checkRows = false
        cascadedFromWork = false
        let (observation, rule) = predict(command)
        if observation.isTrap { crashed = true }
        return (observation, rule)
    }

    /// How many models the target's inverse of relationship `r` holds (-1 without an inverse).
    func inverseCount(_ o: Int, _ r: Int, _ t: Int) -> Int {
        guard let inverse = entities[objects[o].entity].relationships[r].inverse else { return -1 }
        return objects[t].links[inverse].count
    }

    /// How many of `o`'s related models (with backing data) hold `o` in the inverse relationship.
    func referencedBy(_ o: Int) -> Int {
        var count = 0
        for (r, relationship) in entities[objects[o].entity].relationships.enumerated() {
            guard let inverse = relationship.inverse else { continue }
            for p in objects[o].links[r] where objects[p].lifecycle != .invalidated && objects[p].links[inverse].contains(o) { count += 1 }
        }
        return count
    }

    private static func trapRule(_ code: TrapCode) -> String {
        switch code {
        case .duplicateRegistration, .insertIntoSecondContext: return "G5"
        case .crossContextRelationship: return "G6"
        case .invalidatedBackingData: return "G17"
        case .mutatingDeletedModel: return "G18"
        }
    }

    private static func trapped(_ code: TrapCode) -> (GraphObservation, String) { (.trap(code.rawValue), trapRule(code)) }

    private mutating func predict(_ command: GraphCommand) -> (GraphObservation, String) {
        switch command {
        case let .create(result, entity, variant, context):
            let o = newObject(entity)
            let pool = BooksEntities.createPool(entity)
            objects[o].values[pool.attribute] = pool.pool[variant]
            bind(result.index, o)
            if context >= 0 { insertGraph(o, context) }
            return (.identifier(kind(objects[o].id)), context >= 0 ? "G2" : "G1")
        case let .insert(ref, context):
            let o = refs[ref.index]
            if let trap = insert(o, context) { return Self.trapped(trap) }
            return (.identifier(kind(objects[o].id)), "G2")
        case let .relate(ref, r, target):
            if let trap = relate(refs[ref.index], r, refs[target.index]) { return Self.trapped(trap) }
            return (.related(inverse: inverseCount(refs[ref.index], r, refs[target.index])), "G7")
        case let .unrelate(ref, r, target):
            if let trap = unrelate(refs[ref.index], r, refs[target.index]) { return Self.trapped(trap) }
            return (.related(inverse: inverseCount(refs[ref.index], r, refs[target.index])), "G7")
        case let .set(ref, slot, variant):
            let o = refs[ref.index]
            let settable = BooksEntities.settable(objects[o].entity)[slot]
            if let trap = setValue(o, settable.attribute, settable.pool[variant]) { return Self.trapped(trap) }
            return (.none, "G20")
        case let .delete(ref):
            let o = refs[ref.index]
            let c = objects[o].context
            if let trap = delete(o) { return Self.trapped(trap) }
            return (.deleted(pending: contexts[c].deleted.count, referencedBy: referencedBy(o)), "G8")
        case let .save(c):
            let observation = librarySave(c)
            switch observation {
            case .trap:
                return (observation, "G17")
            case .refused(let issues):
                lastSave = .failed
                checkRows = true
                return (observation, issues.contains("editionInUse") ? "B4" : "B5")
            case .saveFailed(_, let issues):
                lastSave = .failed
                checkRows = true
                if issues.contains(where: { $0.code == 1600 && $0.entity == "Edition" && $0.key == "userLibraryEntries" }) {
                    return (observation, "B4")
                }
                return (observation, issues.contains(where: { $0.code == 1600 }) ? "G11" : "G10")
            default:
                lastSave = .saved
                checkRows = true
                return (observation, "G19")
            }
        case let .rollback(c):
            rollback(c)
            return (.none, "G13")
        case let .holdID(ref):
            let id = objects[refs[ref.index]].id
            held.append(id)
            return (.identifier(kind(id)), "G2")
        case let .lookup(result, h, c, method):
            let id = held[h]!
            let found: Int?
            let rule: String
            switch method {
            case .model:
                found = modelFor(id, c)
                rule = "G14"
            case .registered:
                found = registeredModel(id, c)
                rule = "G15"
            case .fetch:
                found = fetchByID(id, c)
                rule = "G16"
            }
            let ruleForID = id.permanent ? rule : "G3"
            guard let o = found else {
                bind(result.index, -1)
                return (.notFound, ruleForID)
            }
            let same = firstRef(to: o)
            bind(result.index, o)
            return (.found(name(o), sameAs: same, context: objects[o].context, lifecycle: objects[o].lifecycle.rawValue), ruleForID)
        case let .read(ref, p):
            let o = refs[ref.index]
            if let trap = readable(o) { return (.trap(trap.rawValue), objects[o].context < 0 ? "G14" : "G17") }
            let attributeCount = entities[objects[o].entity].attributes.count
            if p < attributeCount { return (.value(objects[o].values[p]), "G20") }
            return (.objects(objects[o].links[p - attributeCount].map { name($0) }.sorted()), "G7")
        case let .state(ref):
            let object = objects[refs[ref.index]]
            return (.state(context: object.context, lifecycle: object.lifecycle.rawValue, deleted: object.pendingDelete,
                           changes: object.hasChanges), "G8")
        case let .fetchTitle(c, v):
            let found = fetch(entity: BooksEntities.work, attribute: BooksEntities.workTitle, equals: BooksEntities.titles[v], c)
            return (.objects(found.map { name($0) }.sorted()), "G16")
        case let .wishlist(result, w, c):
            return (createEntry(result: result.index, work: refs[w.index], edition: nil, context: c), "B1")
        case let .owned(result, w, ed, c):
            return (createEntry(result: result.index, work: refs[w.index], edition: refs[ed.index], context: c), "B1")
        case let .acquire(e, ed):
            return (acquire(refs[e.index], refs[ed.index]), "B2")
        case let .userEntry(w):
            return (userEntry(refs[w.index]), "B3")
        case let .validate(e):
            switch validateEntry(refs[e.index]) {
            case .failure(let trap): return (.trap(trap.rawValue), "B5")
            case .success(let issue): return (.validation(issue), "B5")
            }
        }
    }
}
