import GraphFuzzEngine
import GraphSpec

/// The BooksTracker domain operations of seed 004 (rules B1–B6), on top of the store's rules.
extension GraphModel {
    private static let wishlist: SpecValue = .string("wishlist")

    private func isWishlist(_ e: Int) -> Bool { objects[e].values[BooksEntities.entryStatus] == Self.wishlist }
    private func hasEdition(_ e: Int) -> Bool { !objects[e].links[BooksEntities.entryEdition].isEmpty }

    /// The specification's step for a domain operation: the observation it must make, each part under the rule that
    /// decides it. A predicted trap ends the case.
    public mutating func predict(_ command: BooksCommand) -> Prediction<BooksObservation> {
        let prediction: Prediction<BooksObservation>
        switch command {
        case let .wishlist(result, work, context):
            prediction = createEntry(result: result.index, work: refs[work.index], edition: nil, context: context)
        case let .owned(result, work, edition, context):
            prediction = createEntry(result: result.index, work: refs[work.index], edition: refs[edition.index], context: context)
        case let .acquire(entry, edition):
            prediction = acquire(refs[entry.index], refs[edition.index])
        case let .userEntry(work):
            prediction = userEntry(refs[work.index])
        case let .validate(entry):
            prediction = validateEntry(refs[entry.index])
        }
        if prediction.value.isTrap { crash() }
        return prediction
    }

    /// B1 (seed 004 Task 1.2): the factories insert the entry, then relate it to its work (and edition). The new
    /// entry's identifier is G2's, each inverse that holds it the rule that last changed it (G7: relating it).
    public mutating func createEntry(result: Int, work: Int, edition: Int?, context c: Int) -> Prediction<BooksObservation> {
        let e = newObject(BooksEntities.entry)
        if edition == nil { _ = setValue(e, BooksEntities.entryStatus, Self.wishlist) }
        bind(result, e)
        _ = insert(e, c)
        if let trap = relate(e, BooksEntities.entryWork, work) { return Prediction(.trap(trap.name.rawValue), rule: BooksRules.insertBeforeRelate) }
        if let edition, let trap = relate(e, BooksEntities.entryEdition, edition) {
            return Prediction(.trap(trap.name.rawValue), rule: BooksRules.insertBeforeRelate)
        }
        return Prediction(.entry(kind(objects[e].id), inWork: objects[work].links[BooksEntities.workEntries].contains(e),
                                 inEdition: edition.map { objects[$0].links[BooksEntities.editionEntries].contains(e) } ?? false),
                          rule: BooksRules.insertBeforeRelate)
            .part(BooksObservation.identifierLabel, rule: GraphRules.temporaryID)
            .part(BooksObservation.inWorkLabel, rule: linkRule(work, BooksEntities.workEntries))
            .part(BooksObservation.inEditionLabel, rule: edition.map { linkRule($0, BooksEntities.editionEntries) } ?? GraphRules.inverses)
    }

    /// B2 (seed 004 Task 5.3): acquiring an edition sets it, and a wishlist entry becomes to-read. Whether the
    /// edition's inverse holds the entry is decided by the rule that last changed that inverse (G7: relating it, or a
    /// failed save's nullify left it pending).
    public mutating func acquire(_ e: Int, _ edition: Int) -> Prediction<BooksObservation> {
        if let trap = relate(e, BooksEntities.entryEdition, edition) ?? readTrap(e) { return Prediction(.trap(trap.name.rawValue), rule: BooksRules.acquire) }
        if isWishlist(e), let trap = setValue(e, BooksEntities.entryStatus, .string("toRead")) {
            return Prediction(.trap(trap.name.rawValue), rule: BooksRules.acquire)
        }
        return Prediction(.acquired(status: objects[e].values[BooksEntities.entryStatus],
                                    inEdition: objects[edition].links[BooksEntities.editionEntries].contains(e)), rule: BooksRules.acquire)
            .part(BooksObservation.inEditionLabel, rule: linkRule(edition, BooksEntities.editionEntries))
    }

    /// B3 (seed 004 Phase 3): `Work.userEntry` is the first owned entry (not wishlist, with an edition), else the
    /// first wishlist entry, else nil. Every entry it looks at is read.
    public func userEntry(_ w: Int) -> Prediction<BooksObservation> {
        Prediction(userEntryObservation(w), rule: BooksRules.userEntry)
    }

    private func userEntryObservation(_ w: Int) -> BooksObservation {
        if let trap = readTrap(w) { return .trap(trap.name.rawValue) }
        let entries = objects[w].links[BooksEntities.workEntries]
        if let owned = entries.firstIndex(where: { readTrap($0) != nil || (!isWishlist($0) && hasEdition($0)) }) {
            return readTrap(entries[owned]).map { .trap($0.name.rawValue) } ?? .object(name(entries[owned]))
        }
        return .object(entries.first(where: isWishlist).map(name))
    }

    /// B5 (seed 004 Task 5.1): `validate()` refuses a wishlist entry with an edition, then an entry without a work.
    public func validateEntry(_ e: Int) -> Prediction<BooksObservation> {
        switch validation(e) {
        case .failure(let trap): return Prediction(.trap(trap.name.rawValue), rule: BooksRules.libraryValidates)
        case .success(let issue): return Prediction(.validation(issue), rule: BooksRules.libraryValidates)
        }
    }

    private func validation(_ e: Int) -> Result<String?, SpecTrap> {
        if let trap = readTrap(e) { return .failure(trap) }
        if isWishlist(e) && hasEdition(e) { return .success("wishlistCannotHaveEdition") }
        return .success(objects[e].links[BooksEntities.entryWork].isEmpty ? "missingWorkRelationship" : nil)
    }

    /// B4 under CloudKit (no deny rule, R23): an edition the save deletes while an entry that stays holds it.
    func editionsInUse(_ c: Int) -> (inUse: Bool, lost: Bool) {
        let closure = deletionClosure(c)
        let removed = closure.filter { objects[$0].entity == BooksEntities.edition }
        let lost = removed.contains { objects[$0].lifecycle == .invalidated }
        let inUse = removed.contains { objects[$0].links[BooksEntities.editionEntries].contains { !closure.contains($0) } }
        return (inUse, lost)
    }

    /// The rule of each reason `Library.save()` refuses for: B4 for an edition in use, B5 for `validate()`'s.
    static let reasonRules = [("editionInUse", BooksRules.ownedKeepsEdition), ("missingWorkRelationship", BooksRules.libraryValidates),
                               ("wishlistCannotHaveEdition", BooksRules.libraryValidates)]

    /// B5, B4, then the store's save: `Library.save()` validates the pending entries that stay, refuses (CloudKit)
    /// to delete an edition an entry keeps, and saves. A refusal is decided by its first reason's rule, each reason
    /// by its own, and the unchanged rows by G12.
    public mutating func librarySave(_ c: Int) -> Prediction<GraphObservation> {
        let entries = objects(in: c) { $0.entity == BooksEntities.entry && ($0.inserted || $0.changed) && !$0.deleted }
        let results = entries.map(validation)
        var trapped = results.contains { if case .failure = $0 { return true } else { return false } }
        var reasons = Set(results.compactMap { if case .success(let issue) = $0 { return issue } else { return nil } })
        if schema.name == SchemaConfiguration.cloudKit.rawValue {
            let editions = editionsInUse(c)
            trapped = trapped || editions.lost
            if editions.inUse { reasons.insert("editionInUse") }
        }
        if trapped { return SpecTrap(.invalidatedBackingData, GraphRules.foreignDeleteInvalidates).prediction }
        guard !reasons.isEmpty else { return storeSave(c) }
        let sorted = reasons.sorted()
        var refused = savedState(rule: GraphRules.failedSaveKeepsAll) { .refused(sorted, $0) }.part("", rule: GraphRules.failedSaveKeepsAll)
        refused.rule = Self.reasonRules.first { $0.0 == sorted[0] }!.1
        for (reason, rule) in Self.reasonRules { refused = refused.part(reason, rule: rule) }
        return refused
    }
}
