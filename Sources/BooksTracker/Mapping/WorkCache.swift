import GraphStore

/// The volume ID → work cache, and the lookups each cache strategy makes.
struct WorkCache {
    enum Entry {
        case identifier(PersistentIdentifier)
        case object(Work)
    }

    private(set) var entries: [String: Entry] = [:]

    mutating func store(_ work: Work, for volumeID: String, strategy: MapperStrategy.Cache) {
        switch strategy {
        case .objects, .objectsWithManualEviction:
            entries[volumeID] = .object(work)
        case .persistentIdentifiers, .modelForLookup, .temporaryIdentifiersKept, .temporaryIdentifiersTrusted:
            if let id = work.persistentModelID { entries[volumeID] = .identifier(id) }
        }
    }

    mutating func evict(_ volumeID: String) { entries[volumeID] = nil }

    mutating func removeAll() { entries = [:] }

    /// Evicts every entry that names `work` (by object or by its current identifier).
    mutating func evict(_ work: Work) {
        let id = work.persistentModelID
        for (volumeID, entry) in entries {
            switch entry {
            case .object(let cached) where cached === work: entries[volumeID] = nil
            case .identifier(let cached) where cached == id: entries[volumeID] = nil
            default: continue
            }
        }
    }

    /// What the cache says about `volumeID`.
    enum Answer {
        /// No entry.
        case miss
        /// The entry's work, to be used as it is.
        case hit(Work)
        /// The entry named a work that is gone; it was evicted. `searchStore` says whether the volume ID
        /// may still be held by another live work (true unless the strategy reads a failure as a deletion).
        case evicted(searchStore: Bool)
    }

    /// Looks `volumeID` up as `strategy` does.
    mutating func lookUp(_ volumeID: String, in context: ModelContext, strategy: MapperStrategy.Cache) -> Answer {
        guard let entry = entries[volumeID] else { return .miss }
        switch (strategy, entry) {
        case (.objects, .object(let work)):
            // Seed 000 "before": the cached object, whatever became of it.
            return .hit(work)
        case (.objectsWithManualEviction, .object(let work)):
            // Checked against what this context can see; a deletion elsewhere is invisible here (and reading
            // the volume IDs of a model whose row another context deleted traps, R28).
            if work.modelContext === context, !work.isDeleted, work.googleBooksVolumeIDs.contains(volumeID) { return .hit(work) }
            entries[volumeID] = nil
            return .evicted(searchStore: true)
        case (.modelForLookup, .identifier(let id)):
            // Seed 000 "after": `model(for:)` is trusted to return nil for a deleted work. It never does (R14).
            if let work = context.model(for: id) as? Work { return .hit(work) }
            entries[volumeID] = nil
            return .evicted(searchStore: false)
        case (.temporaryIdentifiersKept, .identifier(let id)):
            if let work = DTOMapper.liveWork(id, in: context), work.googleBooksVolumeIDs.contains(volumeID) { return .hit(work) }
            entries[volumeID] = nil
            return .evicted(searchStore: false)
        case (.temporaryIdentifiersTrusted, .identifier(let id)) where id.isTemporary && context.registeredModel(for: id) == nil:
            // The faulty trust: a temporary identifier of an earlier launch never resolves (G24); model(for:)
            // returns a placeholder whose reads trap (R14).
            if let work = context.model(for: id) as? Work { return .hit(work) }
            entries[volumeID] = nil
            return .evicted(searchStore: true)
        case (.persistentIdentifiers, .identifier(let id)), (.temporaryIdentifiersTrusted, .identifier(let id)):
            guard let work = DTOMapper.liveWork(id, in: context), work.googleBooksVolumeIDs.contains(volumeID) else {
                entries[volumeID] = nil
                return .evicted(searchStore: true)
            }
            // A temporary identifier that resolved after its save: keep the permanent one (R3, R4).
            if let current = work.persistentModelID, current != id { entries[volumeID] = .identifier(current) }
            return .hit(work)
        default:
            entries[volumeID] = nil
            return .evicted(searchStore: true)
        }
    }
}

extension DTOMapper {
    /// The live work with identifier `id` in `context`, or nil — without ever reading a stale object.
    ///
    /// `registeredModel(for:)` never reads the store (R15), so it is trusted only for a pending insert of
    /// this context (its identifier is still the temporary one it was cached under). Otherwise a fetch by
    /// identifier reads the store (R16): absent when the row was deleted and saved, here or elsewhere. A
    /// model deleted in this context and not saved is still fetched (R18), hence the `isDeleted` check.
    /// `model(for:)` is never used: it returns a placeholder for a missing row, whose reads trap (R14).
    public static func liveWork(_ id: PersistentIdentifier, in context: ModelContext) -> Work? {
        if id.isTemporary, let registered = context.registeredModel(for: id) as? Work,
           registered.persistentModelID == id, !registered.isDeleted {
            return registered
        }
        guard let work = context.fetch(FetchDescriptor(.identifier(id))).first as? Work, !work.isDeleted else { return nil }
        return work
    }
}
