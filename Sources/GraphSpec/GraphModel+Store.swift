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

    /// A model of a context that is not a pending insert becomes a pending change.
    mutating func noteChange(_ o: Int) {
        if objects[o].context >= 0 && !objects[o].inserted { objects[o].changed = true }
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

    /// G7: how many models the target's inverse of relationship `r` holds (-1 without an inverse).
    func inverseCount(_ o: Int, _ r: Int, _ t: Int) -> Int {
        relationship(o, r).inverse.map { objects[t].links[$0].count } ?? -1
    }

    /// The rule that decided whether the pair (o, r, t) and its inverse are there: G7, unless the pair is half
    /// there (one side holds it, the other not). Only a failed save's delete rules leave that, pending (G9): a
    /// deleted model's nullify removed it from its partner's side, while the partner's side is kept because the
    /// relationship from the other end did not nullify it (deny, cascade or no action). That relationship's rule
    /// decided the half that stays — its app rule when one owns it, else G9.
    public func pairRule(_ o: Int, _ r: Int, _ t: Int) -> String {
        guard let inverse = relationship(o, r).inverse else { return GraphRules.inverses }
        let forward = objects[o].links[r].contains(t)
        guard forward != objects[t].links[inverse].contains(o) else { return GraphRules.inverses }
        return (forward ? relationship(t, inverse) : relationship(o, r)).rule ?? GraphRules.deleteRulesAtSave
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

    /// G9 (R20): whether a relationship of `o` without an inverse holds one of `deleted`.
    func danglesInto(_ o: Int, _ deleted: [Int]) -> Bool {
        objects[o].links.indices.contains { r in relationship(o, r).inverse == nil && objects[o].links[r].contains { deleted.contains($0) } }
    }

    /// G9 (R19, R20): at save, cascade deletes the closure and nullify removes each deleted model from its
    /// partners; the deleted models keep their own pairs. Returns the models the delete rules changed — the ones
    /// the cascade added and the partners nullify changed — each with the rule that decided its change.
    mutating func applyDeleteRules(_ c: Int) -> [(object: Int, rule: String)] {
        let closure = deletionClosure(c)
        var touched: [(object: Int, rule: String)] = []
        for o in closure {
            for (t, rule) in cascaded(from: o, c) where !objects[t].deleted && !touched.contains(where: { $0.object == t }) {
                touched.append((t, rule))
            }
        }
        let nullified = nullifiedPairs(closure)
        for o in closure { objects[o].deleted = true }
        for pair in nullified {
            removePair(pair.partner, pair.inverse, pair.deleted)
            touched.append((pair.partner, pair.rule))
        }
        // A relationship without an inverse is never nullified: its holder keeps the deleted model (dangling, R20).
        for o in objects(in: c, where: { !$0.deleted && $0.lifecycle == .registered }) where danglesInto(o, closure) {
            touched.append((o, GraphRules.deleteRulesAtSave))
        }
        return touched
    }

    /// G9: `applyDeleteRules`, and of the models it changed, the ones only the cascade deleted (the app did not),
    /// each with its rule and the models that held it before the delete rules ran.
    mutating func applyDeleteRulesNamingCascade(_ c: Int) -> (touched: [(object: Int, rule: String)], cascaded: [CascadedDelete]) {
        let deletedByApp = objects(in: c) { $0.deleted }
        let pending = objects
        let touched = applyDeleteRules(c)
        let cascaded = touched.filter { objects[$0.object].deleted && !deletedByApp.contains($0.object) }.map { object, rule in
            CascadedDelete(object: object, rule: rule, heldBy: pending.indices.flatMap { h in
                pending[h].links.indices.filter { pending[h].links[$0].contains(object) }.map { (holder: h, relationship: $0) }
            })
        }
        return (touched, cascaded)
    }

    /// A model only a save's cascade deleted: the rule owning the cascade, and the pairs (holder, relationship)
    /// that held it before the delete rules ran.
    struct CascadedDelete {
        var object: Int, rule: String, heldBy: [(holder: Int, relationship: Int)]
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
        let (touched, cascaded) = applyDeleteRulesNamingCascade(c)
        let issues = validationIssues(c)
        guard issues.isEmpty else { return failedSave(issues, cascaded: cascaded) }
        let upserts = schema.hasUniqueAttributes ? upsertTargets(c) : [:]
        if upserts.count != Set(upserts.values).count { return SpecTrap(.temporaryIdentifierRemap, GraphRules.uniqueUpsert).prediction }
        commit(c, upserts: upserts)
        let upserted = upserts.keys.sorted().map { (object: $0, rule: GraphRules.uniqueUpsert) }
        return savedState(rule: GraphRules.savedSnapshot, touched: touched + upserted, numbering: true) { .saved($0) }
    }

    /// G10, G11, G12: a save that failed with `issues`: its outcome is decided by its first deny issue's rule (as
    /// `issueRules` names it), else G10; its issues as `issueRules` decides them, and the unchanged rows by G12.
    /// `cascaded`: the models only the save's cascade deleted, each with its rule (G9, or the app rule owning it).
    func failedSave(_ issues: [IssueName], cascaded: [CascadedDelete] = []) -> Prediction<GraphObservation> {
        let code = issues.count == 1 ? issues[0].code : 1560
        let rules = issueRules(issues, cascaded: cascaded)
        let firstDeny = issues.first { $0.code == 1600 }.map { GraphObservation.denyLabel($0.entity, $0.key) }
        var prediction = savedState(rule: GraphRules.failedSaveKeepsAll) { .saveFailed(code: code, issues: issues, $0) }
        prediction.rule = firstDeny.flatMap { label in rules.first { $0.label == label }?.rules.first } ?? GraphRules.validation
        return Self.parts(prediction, rules).part(GraphObservation.codeLabel, rule: GraphRules.validation)
    }

    /// G11, G9, G10: the rules of a save error's issue parts: each deny relationship's issues by G11, and first by
    /// the app rule owning the deny, else by the cascade's rule when a model only the save's cascade deleted is
    /// named there or held there by a deleted model (whether it is deleted is the cascade's); the other validation
    /// issues by G10.
    func issueRules(_ issues: [IssueName], cascaded: [CascadedDelete]) -> [(label: String, rules: [String])] {
        var rules: [(label: String, rules: [String])] = []
        for (e, entity) in entities.enumerated() {
            for (r, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .deny {
                let label = GraphObservation.denyLabel(entity.name, relationship.name)
                let named = issues.filter { $0.code == 1600 && GraphObservation.denyLabel($0.entity, $0.key) == label }.compactMap(\.object)
                let cascade = cascaded.first { deleted in
                    named.contains(name(deleted.object))
                        || deleted.heldBy.contains { objects[$0.holder].entity == e && objects[$0.holder].deleted && $0.relationship == r }
                }?.rule
                rules.append((label, [relationship.rule ?? cascade, GraphRules.denyDelete].compactMap { $0 }))
            }
        }
        return rules + [(GraphObservation.validationLabel, [GraphRules.validation])]
    }

    /// `prediction` with each labelled part's rules, in order.
    static func parts(_ prediction: Prediction<GraphObservation>, _ rules: [(label: String, rules: [String])]) -> Prediction<GraphObservation> {
        rules.reduce(prediction) { prediction, part in part.rules.reduce(prediction) { $0.part(part.label, rule: $1) } }
    }

    /// The saved state as it is now, observed by `make` under `rule`: every row by `rule`, except the rows of
    /// `touched` models (their own rule: G9 or an app rule owning a delete rule, G28 for an upsert); with `numbering`, after a relaunch, the numbers this save gave (G27:
    /// none was issued before). The rules are declared for every name a row can have.
    public func savedState(rule: String, touched: [(object: Int, rule: String)] = [], numbering: Bool = false, damaged: Bool = false,
                           _ make: (SavedState) -> GraphObservation) -> Prediction<GraphObservation> {
        let state = SavedState(rows: canonicalRows(), damagedCopies: damaged ? Self.damagedRefusals : nil,
                               reusedNumbers: numbering && launch > 1 ? [] : nil)
        var prediction = Prediction(make(state), rule: rule)
        var ruleOfRef: [String?] = refs.map { _ in nil }
        for (o, touchedRule) in touched {
            // A row an insert took over is named by every reference to a model of it, in either context, and the
            // rows relating to it name it.
            let own = touchedRule == GraphRules.uniqueUpsert ? refs.indices.filter { refersTo(refs[$0], objects[o].id) } : []
            for ref in [name(o).ref] + own where ref >= 0 && ruleOfRef[ref] == nil { ruleOfRef[ref] = touchedRule }
        }
        for ref in [-1] + Array(refs.indices) {
            let label = SavedState.rowLabel(ObjectName(row: true, ref: ref))
            guard ref >= 0, let touched = ruleOfRef[ref] else {
                prediction = prediction.part(label, rule: rule)
                continue
            }
            // The store's delete rules (G9) or an upsert (G28) wrote the row; the app rule that chose the
            // relationship's delete rule is credited beside G9 (the schema makes that choice, the store carries it out).
            let store = touched == GraphRules.uniqueUpsert ? touched : GraphRules.deleteRulesAtSave
            prediction = prediction.part(label, rule: store)
            if touched != store { prediction = prediction.part(label, rule: touched) }
        }
        if state.damagedCopies != nil { prediction = prediction.part(SavedState.damagedLabel, rule: GraphRules.refusesDamagedFile) }
        if state.reusedNumbers != nil { prediction = prediction.part(SavedState.numbersLabel, rule: GraphRules.numbersNeverReused) }
        return prediction
    }

    /// G28: whether object `o` is a model of row `id`, or a model whose saved row relates to it.
    func refersTo(_ o: Int, _ id: SpecID?) -> Bool {
        guard o >= 0, let id, let own = objects[o].id else { return false }
        return own == id || (own.permanent && own.number < rows.count && rows[own.number]?.links.contains { $0.contains(id) } == true)
    }

    /// G2, G18, G19, G17, G28: a successful save of context `c`, in which the inserts of `upserts` take over the
    /// rows it names.
    mutating func commit(_ c: Int, upserts: [Int: Int] = [:]) {
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
