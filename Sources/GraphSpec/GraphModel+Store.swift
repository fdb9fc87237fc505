/// The store's trap codes as the specification predicts them (raw values match the store's).
public enum TrapCode: String, Error, Sendable {
    case duplicateRegistration, crossContextRelationship, insertIntoSecondContext, invalidatedBackingData, mutatingDeletedModel
}

/// The store semantics (rules G1–G20), step by step. A function returning a `TrapCode` changed nothing.
extension GraphModel {
    // MARK: Objects

    /// G1: a new model has no context and no identifier; its attributes start at their defaults.
    mutating func newObject(_ entity: Int) -> Int {
        objects.append(SpecObject(entity: entity, values: entities[entity].defaultValues, links: entities[entity].emptyLinks))
        return objects.count - 1
    }

    func writable(_ o: Int) -> TrapCode? {
        switch objects[o].lifecycle {
        case .invalidated: return .invalidatedBackingData
        case .detached: return .mutatingDeletedModel
        case .new, .registered: return nil
        }
    }

    /// G17/G14: reading an invalidated model traps.
    func readable(_ o: Int) -> TrapCode? { objects[o].lifecycle == .invalidated ? .invalidatedBackingData : nil }

    mutating func willChange(_ o: Int) {
        let object = objects[o]
        guard object.context >= 0, !object.pendingInsert, !object.changeTracked else { return }
        objects[o].committed = (object.values, object.links)
        objects[o].changeTracked = true
        contexts[object.context].changed.append(o)
    }

    /// G20: setting an attribute.
    mutating func setValue(_ o: Int, _ attribute: Int, _ value: SpecValue) -> TrapCode? {
        if let trap = writable(o) { return trap }
        if objects[o].values[attribute] == value { return nil }
        willChange(o)
        objects[o].values[attribute] = value
        return nil
    }

    // MARK: Relationships (G6, G7)

    mutating func addLink(_ o: Int, _ r: Int, _ t: Int) {
        if objects[o].links[r].contains(t) { return }
        willChange(o)
        if entities[objects[o].entity].relationships[r].toMany {
            objects[o].links[r].append(t)
        } else {
            objects[o].links[r] = [t]
        }
    }

    mutating func removeLink(_ o: Int, _ r: Int, _ t: Int) {
        guard let position = objects[o].links[r].firstIndex(of: t) else { return }
        willChange(o)
        objects[o].links[r].remove(at: position)
    }

    /// G7: links and maintains the inverse (a to-one moves: its old partner loses it).
    mutating func link(_ o: Int, _ r: Int, _ t: Int) {
        let relationship = entities[objects[o].entity].relationships[r]
        if relationship.toMany {
            if objects[o].links[r].contains(t) { return }
        } else if let old = objects[o].links[r].first {
            if old == t { return }
            removeLink(o, r, old)
            if let inverse = relationship.inverse { removeLink(old, inverse, o) }
        }
        addLink(o, r, t)
        guard let inverse = relationship.inverse else { return }
        if !entities[objects[t].entity].relationships[inverse].toMany, let previous = objects[t].links[inverse].first, previous != o {
            removeLink(t, inverse, previous)
            removeLink(previous, r, t)
        }
        addLink(t, inverse, o)
    }

    /// G6: models of two contexts cannot be linked; a new model linked to a registered one traps or is
    /// inserted (R10, a parameter).
    mutating func relate(_ o: Int, _ r: Int, _ t: Int) -> TrapCode? {
        if let trap = writable(o) ?? writable(t) { return trap }
        let source = objects[o].context, destination = objects[t].context
        switch (source >= 0, destination >= 0) {
        case (false, false):
            link(o, r, t)
        case (true, true):
            guard source == destination else { return .crossContextRelationship }
            link(o, r, t)
        default:
            guard config.newModelLink == .autoInsert else { return .crossContextRelationship }
            let context = max(source, destination)
            let newObject = source >= 0 ? t : o
            link(o, r, t)
            insertGraph(newObject, context)
        }
        return nil
    }

    mutating func unrelate(_ o: Int, _ r: Int, _ t: Int) -> TrapCode? {
        if let trap = writable(o) ?? writable(t) { return trap }
        guard objects[o].links[r].contains(t) else { return nil }
        removeLink(o, r, t)
        if let inverse = entities[objects[o].entity].relationships[r].inverse { removeLink(t, inverse, o) }
        return nil
    }

    // MARK: Insert (G2, G4, G5)

    mutating func insert(_ o: Int, _ c: Int) -> TrapCode? {
        switch objects[o].lifecycle {
        case .invalidated: return .invalidatedBackingData
        case .detached: return .mutatingDeletedModel
        case .registered: return objects[o].context == c ? .duplicateRegistration : .insertIntoSecondContext
        case .new:
            insertGraph(o, c)
            return nil
        }
    }

    /// G4: inserting a model inserts every new model it links to; each gets a temporary identifier (G2).
    mutating func insertGraph(_ o: Int, _ c: Int) {
        guard objects[o].lifecycle == .new else { return }
        nextTemporary += 1
        let id = SpecID(permanent: false, number: nextTemporary, entity: objects[o].entity)
        objects[o].context = c
        objects[o].lifecycle = .registered
        objects[o].pendingInsert = true
        objects[o].id = id
        contexts[c].registry[id] = o
        contexts[c].inserted.append(o)
        for relationship in objects[o].links {
            for t in relationship where objects[t].lifecycle == .new { insertGraph(t, c) }
        }
    }

    // MARK: Delete (G8, G9)

    /// G8: delete only marks.
    mutating func delete(_ o: Int) -> TrapCode? {
        let c = objects[o].context
        guard c >= 0 else { return nil }
        if objects[o].lifecycle == .invalidated { return .invalidatedBackingData }
        guard objects[o].lifecycle == .registered, !objects[o].pendingDelete else { return nil }
        markDeleted(o, c)
        return nil
    }

    mutating func markDeleted(_ o: Int, _ c: Int) {
        objects[o].pendingDelete = true
        contexts[c].deleted.append(o)
    }

    /// G9: at save, cascade marks destinations deleted and nullify removes the model from inverses.
    mutating func propagateDeletes(_ c: Int) {
        var index = 0
        while index < contexts[c].deleted.count {
            let o = contexts[c].deleted[index]
            index += 1
            for (r, relationship) in entities[objects[o].entity].relationships.enumerated() {
                let targets = objects[o].links[r]
                switch relationship.deleteRule {
                case .cascade:
                    for t in targets where objects[t].context == c && objects[t].lifecycle == .registered && !objects[t].pendingDelete {
                        if objects[o].entity == BooksEntities.work { cascadedFromWork = true }
                        markDeleted(t, c)
                    }
                case .nullify:
                    guard let inverse = relationship.inverse else { continue }
                    for t in targets where objects[t].lifecycle == .registered { removeLink(t, inverse, o) }
                case .deny, .noAction:
                    continue
                }
            }
        }
    }

    /// The objects the pending deletes remove once cascades have run, without running them.
    func pendingDeletionClosure(_ c: Int) -> [Int] {
        var result = contexts[c].deleted
        var seen = Set(result)
        var index = 0
        while index < result.count {
            let o = result[index]
            index += 1
            for (r, relationship) in entities[objects[o].entity].relationships.enumerated() where relationship.deleteRule == .cascade {
                for t in objects[o].links[r] where objects[t].context == c && objects[t].lifecycle == .registered {
                    if seen.insert(t).inserted { result.append(t) }
                }
            }
        }
        return result
    }

    // MARK: Save (G10–G12, G19)

    /// G17: a save stops the process when a pending model, or a model a pending model links to, lost its row.
    func saveTraps(_ c: Int) -> TrapCode? {
        let context = contexts[c]
        for list in [context.inserted, context.changed, context.deleted] {
            for o in list where objects[o].lifecycle == .invalidated { return .invalidatedBackingData }
        }
        for list in [context.inserted, context.changed, context.deleted] {
            for o in list {
                for relationship in objects[o].links {
                    for t in relationship where objects[t].lifecycle == .invalidated { return .invalidatedBackingData }
                }
            }
        }
        return nil
    }

    /// G10, G11: every validation failure of the pending changes.
    func validationIssues(_ c: Int) -> [IssueName] {
        var issues: [IssueName] = []
        let context = contexts[c]
        for o in context.deleted {
            let entity = entities[objects[o].entity]
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .deny {
                if objects[o].links[r].contains(where: { !objects[$0].pendingDelete }) {
                    issues.append(IssueName(code: 1600, entity: entity.name, key: relationship.name, object: name(o)))
                }
            }
        }
        for o in context.inserted where !objects[o].pendingDelete { validate(o, into: &issues) }
        for o in context.changed where !objects[o].pendingDelete && !objects[o].pendingInsert { validate(o, into: &issues) }
        return issues.sorted()
    }

    private func validate(_ o: Int, into issues: inout [IssueName]) {
        let entity = entities[objects[o].entity]
        func add(_ code: Int, _ key: String) {
            issues.append(IssueName(code: code, entity: entity.name, key: key, object: name(o)))
        }
        for (a, attribute) in entity.attributes.enumerated() {
            switch objects[o].values[a] {
            case .null:
                if !attribute.optional { add(1570, attribute.name) }
            case .int(let value):
                if let range = attribute.range {
                    if value > range.upperBound { add(1610, attribute.name) }
                    if value < range.lowerBound { add(1620, attribute.name) }
                }
            case .string(let value):
                if let length = attribute.length {
                    if value.count > length.upperBound { add(1660, attribute.name) }
                    if value.count < length.lowerBound { add(1670, attribute.name) }
                }
            case .strings(let values):
                if let length = attribute.length {
                    if values.count > length.upperBound { add(1660, attribute.name) }
                    if values.count < length.lowerBound { add(1670, attribute.name) }
                }
            case .bool:
                break
            }
        }
        for (r, relationship) in entity.relationships.enumerated() {
            let count = objects[o].links[r].count
            if relationship.toMany {
                if let max = relationship.maxCount, count > max { add(1590, relationship.name) }
            } else if count == 0, !relationship.optional {
                add(1570, relationship.name)
            }
        }
    }

    /// The store's save. G12: a failed save writes nothing and keeps the pending changes (delete rules'
    /// effects included). G19: a successful one writes the rows and makes identifiers permanent (G2).
    mutating func storeSave(_ c: Int) -> GraphObservation {
        guard contexts[c].hasChanges else { return .saved }
        if let trap = saveTraps(c) { return .trap(trap.rawValue) }
        propagateDeletes(c)
        let issues = validationIssues(c)
        if !issues.isEmpty {
            return .saveFailed(code: issues.count == 1 ? issues[0].code : 1560, issues: issues)
        }
        commit(c)
        return .saved
    }

    mutating func commit(_ c: Int) {
        var written: [Int] = []
        for o in contexts[c].inserted where !objects[o].pendingDelete {
            if let old = objects[o].id, !old.permanent {
                rows.append(nil)
                let id = SpecID(permanent: true, number: rows.count - 1, entity: objects[o].entity)
                contexts[c].registry[old] = nil
                contexts[c].registry[id] = o
                if config.temporaryIDAfterSave == .resolves { remapped[old.number] = id.number }
                objects[o].id = id
            }
            written.append(o)
        }
        for o in contexts[c].changed where !objects[o].pendingDelete && !objects[o].pendingInsert { written.append(o) }
        var removed: [SpecID] = []
        for o in contexts[c].deleted {
            if objects[o].pendingInsert {
                discard(o, c)
                continue
            }
            if let id = objects[o].id {
                if id.permanent, rows[id.number] != nil {
                    rows[id.number] = nil
                    removed.append(id)
                }
                contexts[c].registry[id] = nil
            }
            objects[o].context = -1
            objects[o].lifecycle = .detached
            objects[o].pendingDelete = false
            objects[o].changeTracked = false
            objects[o].committed = nil
        }
        for o in written {
            guard let id = objects[o].id, id.permanent else { continue }
            rows[id.number] = SpecRow(entity: objects[o].entity, values: objects[o].values,
                                      links: objects[o].links.map { $0.compactMap { objects[$0].id } })
        }
        for o in written {
            objects[o].pendingInsert = false
            objects[o].changeTracked = false
            objects[o].committed = nil
        }
        contexts[c].inserted = []
        contexts[c].changed = []
        contexts[c].deleted = []
        // G17: other contexts' models of deleted rows lose their backing data.
        for other in contexts.indices where other != c {
            for id in removed {
                if let o = contexts[other].registry[id] { objects[o].lifecycle = .invalidated }
            }
        }
    }

    /// G13: a discarded pending insert is new again: no context, no identifier, no relationships.
    mutating func discard(_ o: Int, _ c: Int) {
        if let id = objects[o].id { contexts[c].registry[id] = nil }
        objects[o].id = nil
        objects[o].context = -1
        objects[o].lifecycle = .new
        objects[o].pendingInsert = false
        objects[o].pendingDelete = false
        objects[o].changeTracked = false
        objects[o].committed = nil
        objects[o].links = objects[o].links.map { _ in [] }
    }

    /// G13 (R32): rollback discards inserts, restores deletes and changed values.
    mutating func rollback(_ c: Int) {
        for o in contexts[c].changed where objects[o].changeTracked {
            if let committed = objects[o].committed {
                objects[o].values = committed.values
                objects[o].links = committed.links
            }
            objects[o].committed = nil
            objects[o].changeTracked = false
        }
        for o in contexts[c].deleted { objects[o].pendingDelete = false }
        for o in contexts[c].inserted { discard(o, c) }
        contexts[c].inserted = []
        contexts[c].changed = []
        contexts[c].deleted = []
    }

    // MARK: Lookups (G3, G14–G16)

    /// G3: a held temporary identifier after its save resolves to the permanent one, or stays unknown (R4).
    func resolve(_ id: SpecID) -> SpecID {
        guard !id.permanent, config.temporaryIDAfterSave == .resolves, let row = remapped[id.number] else { return id }
        return SpecID(permanent: true, number: row, entity: id.entity)
    }

    func rowExists(_ id: SpecID) -> Bool { id.permanent && rows[id.number] != nil }

    /// G14: never nil — the registered model, the row's model, or a placeholder whose reads trap.
    mutating func modelFor(_ id: SpecID, _ c: Int) -> Int {
        let resolved = resolve(id)
        if let o = contexts[c].registry[resolved] { return o }
        if rowExists(resolved) { return materialize(resolved, c) }
        return placeholder(resolved)
    }

    /// G15: the context's own model, never reading the store; a stale one follows R15.
    func registeredModel(_ id: SpecID, _ c: Int) -> Int? {
        guard let o = contexts[c].registry[resolve(id)] else { return nil }
        if objects[o].lifecycle == .invalidated, config.registeredAfterForeignDelete == .none { return nil }
        return o
    }

    /// G16: a fetch by identifier reads the store (pending inserts of the context included).
    mutating func fetchByID(_ id: SpecID, _ c: Int) -> Int? {
        let resolved = resolve(id)
        if let o = contexts[c].registry[resolved], objects[o].pendingInsert { return o }
        guard rowExists(resolved) else { return nil }
        return materialize(resolved, c)
    }

    /// G16: a fetch by attribute: pending inserts, then saved rows overlaid with the context's models.
    mutating func fetch(entity: Int, attribute: Int, equals value: SpecValue, _ c: Int) -> [Int] {
        var result = contexts[c].inserted.filter { objects[$0].entity == entity && objects[$0].values[attribute] == value }
        for number in rows.indices {
            guard let row = rows[number], row.entity == entity else { continue }
            let id = SpecID(permanent: true, number: number, entity: entity)
            if let o = contexts[c].registry[id] {
                if objects[o].values[attribute] == value { result.append(o) }
            } else if row.values[attribute] == value {
                result.append(materialize(id, c))
            }
        }
        return result
    }

    /// A row's model in context `c`, and eagerly the models of every row it links to.
    mutating func materialize(_ id: SpecID, _ c: Int) -> Int {
        if let o = contexts[c].registry[id] { return o }
        guard rowExists(id), let row = rows[id.number] else { return placeholder(id) }
        objects.append(SpecObject(entity: row.entity, values: row.values, links: [], lifecycle: .registered, context: c, id: id))
        let o = objects.count - 1
        contexts[c].registry[id] = o
        var links: [[Int]] = []
        for targets in row.links {
            var list: [Int] = []
            for target in targets { list.append(materialize(target, c)) }
            links.append(list)
        }
        objects[o].links = links
        return o
    }

    mutating func placeholder(_ id: SpecID) -> Int {
        let o = newObject(id.entity)
        objects[o].id = id
        objects[o].lifecycle = .invalidated
        return o
    }
}
