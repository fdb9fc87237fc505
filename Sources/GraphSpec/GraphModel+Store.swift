/// The store's trap codes as the specification predicts them (raw values match the store's).
public enum TrapCode: String, Error, Sendable {
    case duplicateRegistration, crossContextRelationship, insertIntoSecondContext, invalidatedBackingData, mutatingDeletedModel
}

/// The store's rules G1–G20 (`GraphRules`), each decided by the function that names it, written from R1–R33 of
/// swiftdata-semantics.md. A function returning a `TrapCode` changed nothing.
extension GraphModel {
    // MARK: Models and attributes

    /// G1 (R1): a new model has no context and no identifier; its attributes hold their defaults.
    mutating func newObject(_ entity: Int) -> Int {
        objects.append(SpecObject(entity: entity, values: entities[entity].attributes.map(\.defaultValue),
                                  links: entities[entity].relationships.map { _ in [] }))
        return objects.count - 1
    }

    /// G17, G18 (R28, R27): a model whose row another context deleted cannot change; one whose deletion was saved
    /// must not.
    func changeTrap(_ o: Int) -> TrapCode? {
        objects[o].lifecycle == .detached ? .mutatingDeletedModel : readTrap(o)
    }

    /// G17, G14 (R28, R14): reading a model whose backing data is gone traps.
    func readTrap(_ o: Int) -> TrapCode? { objects[o].lifecycle == .invalidated ? .invalidatedBackingData : nil }

    /// A model of a context that is not a pending insert becomes a pending change.
    mutating func noteChange(_ o: Int) {
        if objects[o].context >= 0 && !objects[o].inserted { objects[o].changed = true }
    }

    /// G20 (R25): an attribute holds what was last set.
    mutating func setValue(_ o: Int, _ attribute: Int, _ value: SpecValue) -> TrapCode? {
        if let trap = changeTrap(o) { return trap }
        if objects[o].values[attribute] != value { noteChange(o) }
        objects[o].values[attribute] = value
        return nil
    }

    // MARK: Relationships as pairs (G6, G7)

    func relationship(_ o: Int, _ r: Int) -> SpecRelationship { entities[objects[o].entity].relationships[r] }

    mutating func addPair(_ o: Int, _ r: Int, _ t: Int) {
        guard !objects[o].links[r].contains(t) else { return }
        noteChange(o)
        objects[o].links[r].append(t)
    }

    mutating func removePair(_ o: Int, _ r: Int, _ t: Int) {
        guard objects[o].links[r].contains(t) else { return }
        noteChange(o)
        objects[o].links[r].removeAll { $0 == t }
    }

    /// G7 (R11): removing the pair (o, r, t) removes its inverse (t, r⁻¹, o).
    mutating func unlink(_ o: Int, _ r: Int, _ t: Int) {
        removePair(o, r, t)
        if let inverse = relationship(o, r).inverse { removePair(t, inverse, o) }
    }

    /// G7 (R11): relating adds the pair and its inverse; a to-one side holds one partner, so its other pairs go.
    mutating func link(_ o: Int, _ r: Int, _ t: Int) {
        guard !objects[o].links[r].contains(t) else { return }
        let inverse = relationship(o, r).inverse
        if !relationship(o, r).toMany { for old in objects[o].links[r] { unlink(o, r, old) } }
        if let inverse, !relationship(t, inverse).toMany {
            for old in objects[t].links[inverse] where old != o { unlink(t, inverse, old) }
        }
        addPair(o, r, t)
        if let inverse { addPair(t, inverse, o) }
    }

    /// G6 (R10): models of two contexts are never related; relating a new model to a registered one traps, or
    /// inserts the new one (`newModelLink`).
    mutating func relate(_ o: Int, _ r: Int, _ t: Int) -> TrapCode? {
        if let trap = changeTrap(o) ?? changeTrap(t) { return trap }
        let a = objects[o].context, b = objects[t].context
        if a >= 0 && b >= 0 && a != b { return .crossContextRelationship }
        if (a >= 0) != (b >= 0) && config.newModelLink == .trap { return .crossContextRelationship }
        link(o, r, t)
        if a >= 0 && b < 0 { insertGraph(t, a) }
        if b >= 0 && a < 0 { insertGraph(o, b) }
        return nil
    }

    /// G7: unrelating removes the pair and its inverse.
    mutating func unrelate(_ o: Int, _ r: Int, _ t: Int) -> TrapCode? {
        if let trap = changeTrap(o) ?? changeTrap(t) { return trap }
        if objects[o].links[r].contains(t) { unlink(o, r, t) }
        return nil
    }

    // MARK: Insert (G2, G4, G5)

    /// G5 (R9): a registered model cannot be inserted again, here or in the other context.
    mutating func insert(_ o: Int, _ c: Int) -> TrapCode? {
        if objects[o].lifecycle == .registered { return objects[o].context == c ? .duplicateRegistration : .insertIntoSecondContext }
        if let trap = changeTrap(o) { return trap }
        insertGraph(o, c)
        return nil
    }

    /// The models reachable from `start` along `next` (each once), in creation order.
    func reachable(from start: [Int], _ next: (Int) -> [Int]) -> [Int] {
        var reached = start
        var i = 0
        while i < reached.count {
            for t in next(reached[i]) where !reached.contains(t) { reached.append(t) }
            i += 1
        }
        return reached.sorted()
    }

    /// G4 (R8): the new models `o` reaches through relationships, itself included.
    func newGraph(from o: Int) -> [Int] {
        reachable(from: [o]) { objects[$0].links.joined().filter { objects[$0].lifecycle == .new } }
    }

    /// G4, G2 (R8, R2): inserting registers every new model `o` reaches, each under a new temporary identifier.
    /// G4 decides the step when the insert reaches a related new model.
    mutating func insertGraph(_ o: Int, _ c: Int) {
        let graph = newGraph(from: o)
        if graph.count > 1 { decided(GraphRules.insertGraph) }
        for n in graph {
            temporaryCount += 1
            objects[n].id = SpecID(permanent: false, number: temporaryCount, entity: objects[n].entity)
            (objects[n].context, objects[n].lifecycle, objects[n].inserted) = (c, .registered, true)
        }
    }

    // MARK: Delete (G8, G9)

    /// G8 (R18, R19): delete only marks the model; its delete rules wait for the save.
    mutating func delete(_ o: Int) -> TrapCode? {
        if objects[o].lifecycle == .invalidated && objects[o].context >= 0 { return .invalidatedBackingData }
        if objects[o].lifecycle == .registered { objects[o].deleted = true }
        return nil
    }

    /// G9 (R19): the models a save of context `c` deletes: the pending deletes and every registered model of `c`
    /// they reach through cascade relationships, in creation order.
    func deletionClosure(_ c: Int) -> [Int] {
        reachable(from: objects(in: c) { $0.deleted }) { o in
            entities[objects[o].entity].relationships.indices.filter { relationship(o, $0).deleteRule == .cascade }
                .flatMap { objects[o].links[$0] }.filter { objects[$0].context == c && objects[$0].lifecycle == .registered }
        }
    }

    /// G9 (R20): the pairs nullify removes: (partner, inverse, deleted) for each nullify relationship of each
    /// deleted model, taken from the pending graph before any is removed.
    func nullifiedPairs(_ closure: [Int]) -> [(Int, Int, Int)] {
        closure.flatMap { o in
            entities[objects[o].entity].relationships.indices.flatMap { r -> [(Int, Int, Int)] in
                guard relationship(o, r).deleteRule == .nullify, let inverse = relationship(o, r).inverse else { return [] }
                return objects[o].links[r].filter { objects[$0].lifecycle == .registered }.map { ($0, inverse, o) }
            }
        }
    }

    /// G9 (R19, R20): at save, cascade deletes the closure and nullify removes each deleted model from its
    /// partners. The deleted models keep their own pairs.
    mutating func applyDeleteRules(_ c: Int) {
        let closure = deletionClosure(c)
        // Only Work's relationships cascade here: a model the closure adds was reached from a deleted work (B6).
        cascadedFromWork = closure.contains { !objects[$0].deleted }
        let nullified = nullifiedPairs(closure)
        if cascadedFromWork || !nullified.isEmpty { decided(GraphRules.deleteRulesAtSave) }
        deleteRulesTouched = closure.filter { !objects[$0].deleted } + nullified.map(\.0)
        for o in closure { objects[o].deleted = true }
        for (t, inverse, o) in nullified { removePair(t, inverse, o) }
    }

    // MARK: Save (G10–G12, G17–G19)

    /// G17 (R28, R14): a save traps when a model it writes, or a model such a model relates to, lost its row.
    func saveTrap(_ c: Int) -> TrapCode? {
        let lost = objects(in: c) { $0.hasChanges }.contains { o in
            objects[o].lifecycle == .invalidated || objects[o].links.joined().contains { objects[$0].lifecycle == .invalidated }
        }
        return lost ? .invalidatedBackingData : nil
    }

    /// G11 (R21): a deleted model whose deny relationship still holds a model that is not deleted.
    func denyIssues(_ c: Int) -> [IssueName] {
        objects(in: c) { $0.deleted }.flatMap { o in
            entities[objects[o].entity].relationships.indices.filter { r in
                relationship(o, r).deleteRule == .deny && objects[o].links[r].contains { !objects[$0].deleted }
            }.map { IssueName(code: 1600, entity: entities[objects[o].entity].name, key: relationship(o, $0).name, object: name(o)) }
        }
    }

    /// G10 (R25): the Core Data code of each constraint `value` breaks.
    static func attributeCodes(_ attribute: SpecAttribute, _ value: SpecValue) -> [Int] {
        func outside(_ n: Int, _ bounds: ClosedRange<Int>?, above: Int, below: Int) -> [Int] {
            guard let bounds else { return [] }
            return n > bounds.upperBound ? [above] : n < bounds.lowerBound ? [below] : []
        }
        switch value {
        case .null: return attribute.optional ? [] : [1570]
        case .bool: return []
        case .int(let n): return outside(n, attribute.range, above: 1610, below: 1620)
        case .string(let text): return outside(text.count, attribute.length, above: 1660, below: 1670)
        case .strings(let list): return outside(list.count, attribute.length, above: 1660, below: 1670)
        }
    }

    /// G10 (R25): a relationship holding too many models (1590), or a required to-one holding none (1570).
    static func relationshipCodes(_ relationship: SpecRelationship, count: Int) -> [Int] {
        if relationship.toMany { return count > (relationship.maxCount ?? .max) ? [1590] : [] }
        return count == 0 && !relationship.optional ? [1570] : []
    }

    /// G10 (R25): every constraint model `o` breaks.
    func issues(of o: Int) -> [IssueName] {
        let entity = entities[objects[o].entity]
        func issue(_ code: Int, _ key: String) -> IssueName { IssueName(code: code, entity: entity.name, key: key, object: name(o)) }
        let attributes = entity.attributes.indices.flatMap { a in
            Self.attributeCodes(entity.attributes[a], objects[o].values[a]).map { issue($0, entity.attributes[a].name) }
        }
        let relationships = entity.relationships.indices.flatMap { r in
            Self.relationshipCodes(entity.relationships[r], count: objects[o].links[r].count).map { issue($0, entity.relationships[r].name) }
        }
        return attributes + relationships
    }

    /// G10, G11 (R25, R21): a save validates the whole pending graph: deny rules of the deleted models and every
    /// constraint of the inserted and changed models that stay, all failures together.
    func validationIssues(_ c: Int) -> [IssueName] {
        (denyIssues(c) + objects(in: c) { ($0.inserted || $0.changed) && !$0.deleted }.flatMap(issues(of:))).sorted()
    }

    /// G11 decides a save whose deny check finds a deleted model still holding a model that stays (the shipped
    /// schema's only deny rule is B4's, which names the step).
    mutating func noteDenyCheck(_ issues: [IssueName]) {
        if issues.contains(where: { $0.code == 1600 }) { decided(GraphRules.denyDelete) }
    }

    /// G12, G19 (R22): the store's save. The pending graph (delete rules applied) becomes the new snapshot, or, when
    /// it is invalid, nothing changes in the container and everything stays pending.
    mutating func storeSave(_ c: Int) -> GraphObservation {
        guard objects.contains(where: { $0.context == c && $0.hasChanges }) else { return .saved }
        if let trap = saveTrap(c) { return .trap(trap.rawValue) }
        applyDeleteRules(c)
        let issues = validationIssues(c)
        noteDenyCheck(issues)
        if !issues.isEmpty { return .saveFailed(code: issues.count == 1 ? issues[0].code : 1560, issues: issues) }
        // B6 (seed 004): the saved delete of a work took its editions and entries with it.
        if cascadedFromWork { decided(GraphRules.workCascade) }
        commit(c)
        return .saved
    }

    /// G2, G18, G19, G17: a successful save of context `c`.
    mutating func commit(_ c: Int) {
        // G2 (R2, R3): each saved insert's temporary identifier becomes a new row's permanent one.
        for o in objects(in: c, where: { $0.inserted && !$0.deleted }) {
            rows.append(nil)
            numberedByLastSave.append(rows.count - 1)
            numberedEntities.append(objects[o].entity)
            let id = SpecID(permanent: true, number: rows.count - 1, entity: objects[o].entity)
            if config.temporaryIDAfterSave == .resolves, let temporary = objects[o].id { savedAs[temporary] = id }
            objects[o].id = id
        }
        // G18 (R18): a deleted model leaves its context and its row goes; a deleted pending insert is discarded.
        var removed: [SpecID] = []
        for o in objects(in: c, where: { $0.deleted }) {
            if objects[o].inserted {
                discard(o)
            } else {
                if let id = objects[o].id, rowExists(id) { (rows[id.number], removed) = (nil, removed + [id]) }
                (objects[o].context, objects[o].lifecycle) = (-1, .detached)
                (objects[o].deleted, objects[o].changed, objects[o].committed) = (false, false, nil)
            }
        }
        // G19 (R2, R22): each written model's row is its values and relationships, by identifier.
        for o in objects(in: c, where: { $0.inserted || $0.changed }) {
            let links = objects[o].links.map { $0.compactMap { objects[$0].id } }
            rows[objects[o].id!.number] = SpecRow(entity: objects[o].entity, values: objects[o].values, links: links)
            (objects[o].inserted, objects[o].changed) = (false, false)
            objects[o].committed = (objects[o].values, objects[o].links)
        }
        // G17 (R28): the other context's models of the removed rows lose their backing data.
        for o in objects.indices where objects[o].context >= 0 && objects[o].context != c {
            if let id = objects[o].id, removed.contains(id) { objects[o].lifecycle = .invalidated }
        }
    }

    /// G13 (R32): a discarded insert is new again: no context, no identifier, no relationships.
    mutating func discard(_ o: Int) {
        objects[o] = SpecObject(entity: objects[o].entity, values: objects[o].values, links: objects[o].links.map { _ in [] })
    }

    /// G13 (R32): rollback returns changed models to their committed values, restores pending deletes and discards
    /// pending inserts.
    mutating func rollback(_ c: Int) {
        for o in objects(in: c, where: { $0.changed }) {
            if let committed = objects[o].committed { (objects[o].values, objects[o].links) = committed }
            objects[o].changed = false
        }
        for o in objects(in: c, where: { $0.deleted }) { objects[o].deleted = false }
        for o in objects(in: c, where: { $0.inserted }) { discard(o) }
    }

    // MARK: Lookups (G3, G14–G16)

    /// G3 (R4): a held temporary identifier names, after its save, the saved row or nothing (`temporaryIDAfterSave`).
    func resolve(_ id: SpecID) -> SpecID { savedAs[id] ?? id }

    func rowExists(_ id: SpecID) -> Bool { id.permanent && id.number < rows.count && rows[id.number]?.entity == id.entity }

    /// G14 (R14): never nil: the registered model, the saved row's model, or a placeholder whose reads trap.
    mutating func modelFor(_ id: SpecID, _ c: Int) -> Int {
        let id = resolve(id)
        if let o = registered(id, c) { return o }
        return rowExists(id) ? materialize(id, c) : placeholder(id)
    }

    /// G15 (R15): only the context's own model, never the store's; a stale one follows `registeredAfterForeignDelete`.
    func registeredModel(_ id: SpecID, _ c: Int) -> Int? {
        guard let o = registered(resolve(id), c) else { return nil }
        return objects[o].lifecycle == .invalidated && config.registeredAfterForeignDelete == .none ? nil : o
    }

    /// G16 (R16): a fetch by identifier reads the store, and sees the context's pending inserts.
    mutating func fetchByID(_ id: SpecID, _ c: Int) -> Int? {
        let id = resolve(id)
        if let o = registered(id, c), objects[o].inserted { return o }
        return rowExists(id) ? materialize(id, c) : nil
    }

    /// G16 (R16, R18): a fetch by attribute: the context's pending inserts, and the saved rows as the context's
    /// models show them (a model of the context keeps its own values).
    mutating func fetch(entity: Int, attribute: Int, equals value: SpecValue, _ c: Int) -> [Int] {
        var found = objects(in: c) { $0.inserted && $0.entity == entity && $0.values[attribute] == value }
        for number in rows.indices {
            guard let row = rows[number], row.entity == entity else { continue }
            let id = SpecID(permanent: true, number: number, entity: entity)
            if let o = registered(id, c) {
                if objects[o].values[attribute] == value { found.append(o) }
            } else if row.values[attribute] == value {
                found.append(materialize(id, c))
            }
        }
        return found
    }

    /// G14, G16: the context's model of a saved row; the models of the rows it relates to are registered with it.
    mutating func materialize(_ id: SpecID, _ c: Int) -> Int {
        if let o = registered(id, c) { return o }
        guard rowExists(id), let row = rows[id.number] else { return placeholder(id) }
        objects.append(SpecObject(entity: row.entity, values: row.values, links: row.links.map { _ in [] },
                                  lifecycle: .registered, context: c, id: id))
        let o = objects.count - 1
        objects[o].links = row.links.map { $0.map { materialize($0, c) } }
        objects[o].committed = (row.values, objects[o].links)
        return o
    }

    /// G14 (R14): a placeholder for an identifier without a row: no context, reads trap.
    mutating func placeholder(_ id: SpecID) -> Int {
        let o = newObject(id.entity)
        (objects[o].id, objects[o].lifecycle) = (id, .invalidated)
        return o
    }
}
