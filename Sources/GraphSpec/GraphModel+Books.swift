/// The BooksTracker domain operations as the specification predicts them (rules B1–B5).
extension GraphModel {
    private static let wishlist: SpecValue = .string("wishlist")

    /// B1: the factories insert the entry, then relate it (seed 004, Task 1.2).
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

    /// B2: acquiring an edition sets it, and a wishlist entry becomes to-read.
    mutating func acquire(_ e: Int, _ edition: Int) -> GraphObservation {
        if let trap = relate(e, BooksEntities.entryEdition, edition) { return .trap(trap.rawValue) }
        if let trap = readable(e) { return .trap(trap.rawValue) }
        if objects[e].values[BooksEntities.entryStatus] == Self.wishlist,
           let trap = setValue(e, BooksEntities.entryStatus, .string("toRead")) {
            return .trap(trap.rawValue)
        }
        return .acquired(status: objects[e].values[BooksEntities.entryStatus],
                         inEdition: objects[edition].links[BooksEntities.editionEntries].contains(e))
    }

    /// B3: `userEntry` returns an owned entry (not wishlist, with an edition) first, else a wishlist entry.
    func userEntry(_ w: Int) -> GraphObservation {
        if let trap = readable(w) { return .trap(trap.rawValue) }
        let entries = objects[w].links[BooksEntities.workEntries]
        for e in entries {
            if let trap = readable(e) { return .trap(trap.rawValue) }
            if objects[e].values[BooksEntities.entryStatus] != Self.wishlist, !objects[e].links[BooksEntities.entryEdition].isEmpty {
                return .object(name(e))
            }
        }
        for e in entries {
            if let trap = readable(e) { return .trap(trap.rawValue) }
            if objects[e].values[BooksEntities.entryStatus] == Self.wishlist { return .object(name(e)) }
        }
        return .object(nil)
    }

    /// B5: `validate()` refuses a wishlist entry with an edition, then an entry without a work.
    func validateEntry(_ e: Int) -> Result<String?, TrapCode> {
        if let trap = readable(e) { return .failure(trap) }
        if objects[e].values[BooksEntities.entryStatus] == Self.wishlist, !objects[e].links[BooksEntities.entryEdition].isEmpty {
            return .success("wishlistCannotHaveEdition")
        }
        if objects[e].links[BooksEntities.entryWork].isEmpty { return .success("missingWorkRelationship") }
        return .success(nil)
    }

    /// B5, B4, then the store's save: `Library.save()`.
    mutating func librarySave(_ c: Int) -> GraphObservation {
        var trapped = false
        var issues: Set<String> = []
        let context = contexts[c]
        for o in context.inserted + context.changed.filter({ !objects[$0].pendingInsert })
        where objects[o].entity == BooksEntities.entry && !objects[o].pendingDelete {
            switch validateEntry(o) {
            case .failure: trapped = true
            case .success(let issue): if let issue { issues.insert(issue) }
            }
        }
        if config.schema == .cloudKit {
            let removed = pendingDeletionClosure(c)
            let gone = Set(removed)
            for o in removed where objects[o].entity == BooksEntities.edition {
                if objects[o].lifecycle == .invalidated {
                    trapped = true
                    continue
                }
                if objects[o].links[BooksEntities.editionEntries].contains(where: { !gone.contains($0) }) { issues.insert("editionInUse") }
            }
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
