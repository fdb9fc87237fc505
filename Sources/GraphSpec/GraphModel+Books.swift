/// The BooksTracker domain operations of seed 004 (rules B1–B6), on top of the store's rules.
extension GraphModel {
    private static let wishlist: SpecValue = .string("wishlist")

    private func isWishlist(_ e: Int) -> Bool { objects[e].values[BooksEntities.entryStatus] == Self.wishlist }
    private func hasEdition(_ e: Int) -> Bool { !objects[e].links[BooksEntities.entryEdition].isEmpty }

    /// B1 (seed 004 Task 1.2): the factories insert the entry, then relate it to its work (and edition).
    mutating func createEntry(result: Int, work: Int, edition: Int?, context c: Int) -> GraphObservation {
        let e = newObject(BooksEntities.entry)
        if edition == nil { objects[e].values[BooksEntities.entryStatus] = Self.wishlist }
        bind(result, e)
        insertGraph(e, c)
        if let trap = relate(e, BooksEntities.entryWork, work) { return .trap(trap.rawValue) }
        if let edition, let trap = relate(e, BooksEntities.entryEdition, edition) { return .trap(trap.rawValue) }
        return .entry(kind(objects[e].id), inWork: objects[work].links[BooksEntities.workEntries].contains(e),
                      inEdition: edition.map { objects[$0].links[BooksEntities.editionEntries].contains(e) } ?? false)
    }

    /// B2 (seed 004 Task 5.3): acquiring an edition sets it, and a wishlist entry becomes to-read.
    mutating func acquire(_ e: Int, _ edition: Int) -> GraphObservation {
        if let trap = relate(e, BooksEntities.entryEdition, edition) ?? readTrap(e) { return .trap(trap.rawValue) }
        if isWishlist(e), let trap = setValue(e, BooksEntities.entryStatus, .string("toRead")) { return .trap(trap.rawValue) }
        return .acquired(status: objects[e].values[BooksEntities.entryStatus],
                         inEdition: objects[edition].links[BooksEntities.editionEntries].contains(e))
    }

    /// B3 (seed 004 Phase 3): `Work.userEntry` is the first owned entry (not wishlist, with an edition), else the
    /// first wishlist entry, else nil. Every entry it looks at is read.
    func userEntry(_ w: Int) -> GraphObservation {
        if let trap = readTrap(w) { return .trap(trap.rawValue) }
        let entries = objects[w].links[BooksEntities.workEntries]
        if let owned = entries.firstIndex(where: { readTrap($0) != nil || (!isWishlist($0) && hasEdition($0)) }) {
            return readTrap(entries[owned]).map { .trap($0.rawValue) } ?? .object(name(entries[owned]))
        }
        return .object(entries.first(where: isWishlist).map(name))
    }

    /// B5 (seed 004 Task 5.1): `validate()` refuses a wishlist entry with an edition, then an entry without a work.
    func validateEntry(_ e: Int) -> Result<String?, TrapCode> {
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

    /// B5, B4, then the store's save: `Library.save()` validates the pending entries that stay, refuses (CloudKit)
    /// to delete an edition an entry keeps, and saves.
    mutating func librarySave(_ c: Int) -> GraphObservation {
        let entries = objects(in: c) { $0.entity == BooksEntities.entry && ($0.inserted || $0.changed) && !$0.deleted }
        let results = entries.map(validateEntry)
        var trapped = results.contains { if case .failure = $0 { return true } else { return false } }
        var issues = Set(results.compactMap { if case .success(let issue) = $0 { return issue } else { return nil } })
        if config.schema == .cloudKit {
            let editions = editionsInUse(c)
            trapped = trapped || editions.lost
            if editions.inUse { issues.insert("editionInUse") }
        }
        if trapped { return .trap(TrapCode.invalidatedBackingData.rawValue) }
        if !issues.isEmpty { return .refused(issues.sorted()) }
        return storeSave(c)
    }

    mutating func bind(_ ref: Int, _ o: Int) {
        precondition(ref == refs.count, "a result reference must be the next one")
        refs.append(o)
    }

    func kind(_ id: SpecID?) -> IDKind {
        guard let id else { return .none }
        return id.permanent ? .permanent : .temporary
    }
}
