import GraphFuzzEngine

/// The conditions under which SwiftData stops the process, named for what the rules describe.
public enum TrapName: String, Sendable, CaseIterable {
    /// R9: inserting a model that is already registered in the context.
    case duplicateRegistration
    /// R9: inserting a model registered in another context.
    case insertIntoSecondContext
    /// R10: a relationship between models of two contexts (or, under `newModelLink: trap`, a new and a registered one).
    case crossContextRelationship
    /// R14, R28: touching a model whose row no longer exists.
    case invalidatedBackingData
    /// R27: changing a model whose deletion was saved.
    case mutatingDeletedModel
    /// R7: two inserts of one save with one unique value ("was remapped to a temporary identifier during save").
    case temporaryIdentifierRemap
}

/// A trap the specification predicts, and the rule that predicts it. A function returning one changed nothing.
public struct SpecTrap: Error, Equatable, Sendable {
    public var name: TrapName
    public var rule: String

    public init(_ name: TrapName, _ rule: String) {
        self.name = name
        self.rule = rule
    }

    /// The step's prediction: this trap, under its rule.
    public var prediction: Prediction<GraphObservation> { Prediction(.trap(name.rawValue), rule: rule) }
}

/// The store's rules G1–G21 (`GraphRules`), each decided by the function that names it, written from R1–R33 of
/// docs/evidence.md over any schema.
extension GraphModel {
    // MARK: Models and attributes

    /// G1 (R1): a new model has no context and no identifier; its attributes hold their defaults.
    public mutating func newObject(_ entity: Int) -> Int {
        objects.append(SpecObject(entity: entity, values: entities[entity].attributes.map(\.defaultValue),
                                  links: entities[entity].relationships.map { _ in [] }))
        return objects.count - 1
    }

    /// G18, G17 (R27, R28): a model whose deletion was saved must not change; one whose row another context
    /// deleted cannot.
    public func changeTrap(_ o: Int) -> SpecTrap? {
        if objects[o].lifecycle == .detached { return SpecTrap(.mutatingDeletedModel, GraphRules.savedDeleteDetaches) }
        return objects[o].lifecycle == .invalidated ? SpecTrap(.invalidatedBackingData, GraphRules.foreignDeleteInvalidates) : nil
    }

    /// G14, G17 (R14, R28): reading a model whose backing data is gone traps: a placeholder without context (G14),
    /// or a context's model whose row another context deleted (G17). G18: reading a model whose deletion was saved
    /// traps too when `readAfterSavedDelete` says so.
    public func readTrap(_ o: Int) -> SpecTrap? {
        if objects[o].lifecycle == .detached && parameters.readAfterSavedDelete == .traps {
            return SpecTrap(.invalidatedBackingData, GraphRules.savedDeleteDetaches)
        }
        guard objects[o].lifecycle == .invalidated else { return nil }
        return SpecTrap(.invalidatedBackingData, objects[o].context < 0 ? GraphRules.modelForNeverNil : GraphRules.foreignDeleteInvalidates)
    }

    /// A model of a context that is not a pending insert becomes a pending change, the app's own.
    mutating func noteChange(_ o: Int) {
        if objects[o].context >= 0 && !objects[o].inserted { objects[o].changed = true }
        objects[o].changedBy = nil
    }

    /// G20 (R25): an attribute holds what was last set.
    public mutating func setValue(_ o: Int, _ attribute: Int, _ value: SpecValue) -> SpecTrap? {
        if let trap = changeTrap(o) { return trap }
        if objects[o].values[attribute] != value { noteChange(o) }
        objects[o].values[attribute] = value
        return nil
    }

    // MARK: Relationships as pairs (G6, G7)

    func relationship(_ o: Int, _ r: Int) -> SpecRelationship { entities[objects[o].entity].relationships[r] }

    /// Adds the pair (o, r, t) by relating (G7).
    mutating func addPair(_ o: Int, _ r: Int, _ t: Int) {
        guard !objects[o].links[r].contains(t) else { return }
        noteChange(o)
        objects[o].links[r].append(t)
        stampLinks(o, r, GraphRules.inverses)
    }

    /// Removes the pair (o, r, t), by `rule`; returns whether it was there.
    @discardableResult
    mutating func removePair(_ o: Int, _ r: Int, _ t: Int, by rule: String = GraphRules.inverses) -> Bool {
        guard objects[o].links[r].contains(t) else { return false }
        noteChange(o)
        objects[o].links[r].removeAll { $0 == t }
        stampLinks(o, r, rule)
        return true
    }

    /// Provenance: `rule` last changed relationship `r`'s pairs of `o`.
    mutating func stampLinks(_ o: Int, _ r: Int, _ rule: String) {
        if objects[o].linkRules.isEmpty {
            if rule == GraphRules.inverses { return }
            objects[o].linkRules = objects[o].links.map { _ in GraphRules.inverses }
        }
        objects[o].linkRules[r] = rule
    }

    /// Provenance: the rule that last changed relationship `r`'s pairs of `o`: relating and unrelating (G7), or a
    /// save's nullify (G9, or the app rule owning it).
    public func linkRule(_ o: Int, _ r: Int) -> String {
        objects[o].linkRules.isEmpty ? GraphRules.inverses : objects[o].linkRules[r]
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
    public mutating func relate(_ o: Int, _ r: Int, _ t: Int) -> SpecTrap? {
        if let trap = changeTrap(o) ?? changeTrap(t) { return trap }
        let a = objects[o].context, b = objects[t].context
        if a >= 0 && b >= 0 && a != b { return SpecTrap(.crossContextRelationship, GraphRules.crossContextLink) }
        if (a >= 0) != (b >= 0) && parameters.newModelLink == .trap { return SpecTrap(.crossContextRelationship, GraphRules.crossContextLink) }
        link(o, r, t)
        if a >= 0 && b < 0 { insertGraph(t, a) }
        if b >= 0 && a < 0 { insertGraph(o, b) }
        return nil
    }

    /// G7: unrelating removes the pair and its inverse.
    public mutating func unrelate(_ o: Int, _ r: Int, _ t: Int) -> SpecTrap? {
        if let trap = changeTrap(o) ?? changeTrap(t) { return trap }
        if objects[o].links[r].contains(t) { unlink(o, r, t) }
        return nil
    }

    /// G7: how many models the target's inverse of relationship `r` holds (-1 without an inverse), under the rule
    /// that last changed that inverse (G7, or a failed save's nullify left it pending).
    func related(_ o: Int, _ r: Int, _ t: Int) -> Prediction<GraphObservation> {
        guard let inverse = relationship(o, r).inverse else { return Prediction(.related(inverse: -1), rule: GraphRules.inverses) }
        return Prediction(.related(inverse: objects[t].links[inverse].count), rule: linkRule(t, inverse))
    }

    // MARK: Insert (G2, G4, G5)

    /// G5 (R9): a registered model cannot be inserted again, here or in the other context.
    public mutating func insert(_ o: Int, _ c: Int) -> SpecTrap? {
        if objects[o].lifecycle == .registered {
            return SpecTrap(objects[o].context == c ? .duplicateRegistration : .insertIntoSecondContext, GraphRules.duplicateInsert)
        }
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

    /// G4, G2 (R8, R2): inserting registers every new model `o` reaches, each under a new temporary identifier;
    /// returns how many.
    @discardableResult
    mutating func insertGraph(_ o: Int, _ c: Int) -> Int {
        let graph = newGraph(from: o)
        for n in graph {
            temporaryCount += 1
            objects[n].id = SpecID(permanent: false, number: temporaryCount, entity: objects[n].entity)
            (objects[n].context, objects[n].lifecycle, objects[n].inserted) = (c, .registered, true)
        }
        return graph.count
    }

    // MARK: Delete (G8, G9)

    /// G8 (R18, R19): delete only marks the model; its delete rules wait for the save.
    public mutating func delete(_ o: Int) -> SpecTrap? {
        if objects[o].lifecycle == .invalidated && objects[o].context >= 0 {
            return SpecTrap(.invalidatedBackingData, GraphRules.foreignDeleteInvalidates)
        }
        if objects[o].lifecycle == .registered { objects[o].deleted = true }
        return nil
    }

    /// G9 (R19): the models a save of context `c` deletes: the pending deletes and every registered model of `c`
    /// they reach through cascade relationships, in creation order.
    public func deletionClosure(_ c: Int) -> [Int] {
        reachable(from: objects(in: c) { $0.deleted }) { o in cascaded(from: o, c).map(\.object) }
    }

    /// G9: the registered models of `c` that `o`'s cascade relationships reach, each with the rule owning the
    /// cascade (the relationship's app rule, else G9).
    func cascaded(from o: Int, _ c: Int) -> [(object: Int, rule: String)] {
        entities[objects[o].entity].relationships.indices.filter { relationship(o, $0).deleteRule == .cascade }.flatMap { r in
            objects[o].links[r].filter { objects[$0].context == c && objects[$0].lifecycle == .registered }
                .map { ($0, relationship(o, r).rule ?? GraphRules.deleteRulesAtSave) }
        }
    }

    /// G9 (R20): the pairs nullify removes: (partner, inverse, deleted, rule) for each nullify relationship of each
    /// deleted model, taken from the pending graph before any is removed.
    func nullifiedPairs(_ closure: [Int]) -> [(partner: Int, inverse: Int, deleted: Int, rule: String)] {
        closure.flatMap { o in
            entities[objects[o].entity].relationships.indices.flatMap { r -> [(partner: Int, inverse: Int, deleted: Int, rule: String)] in
                guard relationship(o, r).deleteRule == .nullify, let inverse = relationship(o, r).inverse else { return [] }
                let rule = relationship(o, r).rule ?? GraphRules.deleteRulesAtSave
                return objects[o].links[r].filter { objects[$0].lifecycle == .registered }.map { ($0, inverse, o, rule) }
            }
        }
    }

    /// G9 (R19, R20): at save, cascade deletes the closure and nullify removes each deleted model from its
    /// partners; the deleted models keep their own pairs, and a relationship without an inverse, never nullified,
    /// keeps the deleted model (dangling). Each model it changes records the rule that changed it (provenance).
    mutating func applyDeleteRules(_ c: Int) {
        let closure = deletionClosure(c)
        for o in closure {
            for (t, rule) in cascaded(from: o, c) where !objects[t].deleted {
                objects[t].deleted = true
                objects[t].changedBy = rule
            }
        }
        let nullified = nullifiedPairs(closure)
        for o in closure { objects[o].deleted = true }
        for pair in nullified where removePair(pair.partner, pair.inverse, pair.deleted, by: pair.rule) {
            objects[pair.partner].changedBy = pair.rule
        }
        // A relationship without an inverse is never nullified: its holder keeps the deleted model (dangling, R20).
        for o in objects(in: c, where: { !$0.deleted && $0.lifecycle == .registered }) {
            for r in objects[o].links.indices where relationship(o, r).inverse == nil && objects[o].links[r].contains(where: closure.contains) {
                stampLinks(o, r, GraphRules.deleteRulesAtSave)
                objects[o].changedBy = GraphRules.deleteRulesAtSave
            }
        }
    }

    // MARK: Save (G10–G12, G17–G19, G27)

    /// G17 (R28, R14): a save traps when a model it writes, or a model such a model relates to, lost its row.
    func saveTrap(_ c: Int) -> SpecTrap? {
        let lost = objects(in: c) { $0.hasChanges }.contains { o in
            objects[o].lifecycle == .invalidated || objects[o].links.joined().contains { objects[$0].lifecycle == .invalidated }
        }
        if lost { return SpecTrap(.invalidatedBackingData, GraphRules.foreignDeleteInvalidates) }
        return schema.hasUniqueAttributes ? sharedUniqueTrap(c) : nil
    }

    /// G11 (R21): a deleted model whose deny relationship still holds a model that is not deleted (a deny rule
    /// without an inverse only under `denyWithoutInverse: enforced`).
    func denyIssues(_ c: Int) -> [IssueName] {
        objects(in: c) { $0.deleted }.flatMap { o in
            entities[objects[o].entity].relationships.indices.filter { r in
                denies(o, r) && (relationship(o, r).inverse != nil || parameters.denyWithoutInverse == .enforced)
            }.map { IssueName(code: 1600, entity: entities[objects[o].entity].name, key: relationship(o, $0).name, object: name(o)) }
        }
    }

    /// G11 (R21): whether relationship `r` of `o` is a deny rule holding a model that is not deleted.
    func denies(_ o: Int, _ r: Int) -> Bool {
        relationship(o, r).deleteRule == .deny && objects[o].links[r].contains { !objects[$0].deleted }
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

    /// G10 (R25): a to-many holding too many models (1590), or too few when it holds any or is required (1580);
    /// a required to-one holding none (1570).
    static func relationshipCodes(_ relationship: SpecRelationship, count: Int) -> [Int] {
        guard relationship.toMany else { return count == 0 && !relationship.optional ? [1570] : [] }
        var codes: [Int] = []
        if let least = relationship.minCount, count < least, count > 0 || !relationship.optional { codes.append(1580) }
        if count > (relationship.maxCount ?? .max) { codes.append(1590) }
        return codes
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

    /// G12, G19 (R22): the store's save of context `c`. The pending graph (delete rules applied) becomes the new
    /// snapshot (G19; the rows the delete rules changed are theirs, G9), or, when it is invalid, the save fails
    /// with every issue (G10, G11) and nothing changes in the container (G12).
    public mutating func storeSave(_ c: Int) -> Prediction<GraphObservation> {
        guard objects.contains(where: { $0.context == c && $0.hasChanges }) else {
            return savedState(rule: GraphRules.savedSnapshot, numbering: true) { .saved($0) }
        }
        if let trap = saveTrap(c) { return trap.prediction }
        applyDeleteRules(c)
        let issues = validationIssues(c)
        guard issues.isEmpty else { return saveFailure(issues) }
        let upserts = schema.hasUniqueAttributes ? upsertTargets(c) : [:]
        if upserts.count != Set(upserts.values).count { return SpecTrap(.temporaryIdentifierRemap, GraphRules.uniqueUpsert).prediction }
        let decided = commit(c, upserts: upserts)
        return savedState(rule: GraphRules.savedSnapshot, decided: decided, numbering: true) { .saved($0) }
    }

    /// G12, G10, G11: a save that failed with `issues`: nothing changes in the container (G12, credited), and the save
    /// fails under the rule of the part its observation lists first: a deny relationship's (G11, or the app rule that
    /// chose the deny), else validation's (G10), whose are its other issues and its code.
    func saveFailure(_ issues: [IssueName]) -> Prediction<GraphObservation> {
        var failed = savedState(rule: GraphRules.failedSaveKeepsAll) { .saveFailed(code: issues.count == 1 ? issues[0].code : 1560, issues: issues, $0) }
            .part("", rule: GraphRules.failedSaveKeepsAll)
        if let deny = issues.first(where: \.isDeny) {
            failed.rule = schema.denyRules[GraphObservation.denyLabel(deny.entity, deny.key)] ?? GraphRules.denyDelete
        } else {
            failed.rule = GraphRules.validation
        }
        // Every deny relationship's issues, listed or not, were decided by G11 and the app rule that chose the deny
        // (credited).
        if !schema.denyRules.isEmpty {
            for rule in Set(schema.denyRules.values).union([GraphRules.denyDelete]).sorted() { failed = failed.part("", rule: rule) }
        }
        return failed.part(GraphObservation.validationLabel, rule: GraphRules.validation).part(GraphObservation.codeLabel, rule: GraphRules.validation)
    }

    /// The saved state as it is now, observed by `make` under `rule`, which decided every row but those of `decided`
    /// (models whose rows a rule of the step's own changed, each with that rule; credited): the rows' provenance.
    /// With `numbering`, after a relaunch, the numbers this save gave (G27: none was issued before).
    public func savedState(rule: String, decided: [(object: Int, rule: String)] = [], numbering: Bool = false, damaged: Bool = false,
                           _ make: (SavedState) -> GraphObservation) -> Prediction<GraphObservation> {
        var state = SavedState(rows: canonicalRows(), damagedCopies: damaged ? Self.damagedRefusals : nil,
                               reusedNumbers: numbering && launch > 1 ? [] : nil)
        state.rowsRule = rule
        // A model's row is observed under the name of any reference to a model of it (in either context), or its own
        // where the store gave it a row of its own (or one a discarded insert never got).
        state.decided = decided.flatMap { o, rule in
            refs.indices.filter { refs[$0] == o || (refs[$0] >= 0 && objects[o].id != nil && objects[refs[$0]].id == objects[o].id) }
                .map { (ObjectName(row: true, ref: $0), rule) }
        }
        state.denyRules = schema.denyRules
        var prediction = decided.reduce(Prediction(make(state), rule: rule)) { $0.part("", rule: $1.rule) }
        if state.damagedCopies != nil { prediction = prediction.part(SavedState.damagedLabel, rule: GraphRules.refusesDamagedFile) }
        if state.reusedNumbers != nil { prediction = prediction.part(SavedState.numbersLabel, rule: GraphRules.numbersNeverReused) }
        return prediction
    }

    /// G2, G18, G19, G17, G28: a successful save of context `c`, in which the inserts of `upserts` take over the
    /// rows it names. Returns the models whose rows a rule other than G19 decided, each with it: the delete rules'
    /// changes (provenance), an insert that took a row over (G28).
    mutating func commit(_ c: Int, upserts: [Int: Int] = [:]) -> [(object: Int, rule: String)] {
        var decided = objects(in: c) { $0.changedBy != nil }.map { (object: $0, rule: objects[$0].changedBy!) }
        for o in upserts.keys.sorted() where !decided.contains(where: { $0.object == o }) { decided.append((o, GraphRules.uniqueUpsert)) }
        for (o, _) in decided { objects[o].changedBy = nil }
        // G28 (R7): the context's model of a row an insert takes over leaves the context, unwritten.
        for (o, number) in upserts.sorted(by: { $0.key < $1.key }) {
            guard let holder = registered(SpecID(permanent: true, number: number, entity: objects[o].entity), c) else { continue }
            (objects[holder].context, objects[holder].lifecycle) = (-1, parameters.replacedByUpsert.lifecycle)
            (objects[holder].changed, objects[holder].committed) = (false, nil)
        }
        // G2 (R2, R3): each saved insert's temporary identifier becomes a new row's permanent one (G28: or the row it
        // takes over).
        for o in objects(in: c, where: { $0.inserted && !$0.deleted }) {
            if upserts[o] == nil { rows.append(nil) }
            let id = SpecID(permanent: true, number: upserts[o] ?? rows.count - 1, entity: objects[o].entity)
            if parameters.temporaryIDAfterSave == .resolves, let temporary = objects[o].id { savedAs[temporary] = id }
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
        return decided
    }

    /// G13 (R32): a discarded insert is new again: no context, no identifier, no relationships.
    mutating func discard(_ o: Int) {
        objects[o] = SpecObject(entity: objects[o].entity, values: objects[o].values, links: objects[o].links.map { _ in [] })
    }

    /// G13 (R32): rollback returns changed models to their committed values, restores pending deletes and discards
    /// pending inserts.
    public mutating func rollback(_ c: Int) {
        for o in objects(in: c, where: { $0.changed }) {
            if let committed = objects[o].committed { (objects[o].values, objects[o].links) = committed }
            objects[o].changed = false
            objects[o].linkRules = []
        }
        for o in objects(in: c, where: { $0.deleted || $0.changedBy != nil }) { (objects[o].deleted, objects[o].changedBy) = (false, nil) }
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
        return objects[o].lifecycle == .invalidated && parameters.registeredAfterForeignDelete == .none ? nil : o
    }

    /// G16 (R16): a fetch by identifier reads the store, and sees the context's pending inserts.
    public mutating func fetchByID(_ id: SpecID, _ c: Int) -> Int? {
        let id = resolve(id)
        if let o = registered(id, c), objects[o].inserted { return o }
        return rowExists(id) ? materialize(id, c) : nil
    }

    /// G16 (R16, R18): a fetch by attribute: the context's pending inserts, and the saved rows as the context's
    /// models show them (a model of the context keeps its own values).
    public mutating func fetch(entity: Int, attribute: Int, equals value: SpecValue, _ c: Int) -> [Int] {
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

    /// Binds the next reference to object `o` (-1: nothing).
    public mutating func bind(_ ref: Int, _ o: Int) {
        precondition(ref == refs.count, "a result reference must be the next one")
        refs.append(o)
    }

    public func kind(_ id: SpecID?) -> IDKind {
        guard let id else { return .none }
        return id.permanent ? .permanent : .temporary
    }
}
