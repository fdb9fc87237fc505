package import FaultPoints
import GraphStore

/// The volume ID → work cache, and the lookups each cache design makes.
struct WorkCache {
    enum Entry {
        case identifier(PersistentIdentifier)
        case object(Work)
    }

    /// How the cache holds and looks up works: the shipped design, or the faulty one a mutant selects.
    enum Design {
        /// Persistent identifiers; a safe lookup (registered pending insert, else a fetch by identifier,
        /// then not deleted and still holding the volume ID); re-keys identifiers that changed at save;
        /// on a miss, searches the context's live works by volume ID (shipped).
        case persistentIdentifiers
        /// Seed 000 "before": `Work` objects, returned as they are (stale after a delete or rollback).
        case objects
        /// Before seed 000: objects checked against the context (still in it, not deleted, still listing the
        /// volume ID), evicted by `removeWorkFromCache` at deletion sites; a deletion in another context is
        /// invisible to the check, and a site there that forgets to evict leaves a stale object.
        case objectsWithManualEviction
        /// Seed 000 "after" literally: `model(for:)` trusted to return nil for a deleted work (it never does, R14).
        case modelForLookup
        /// Identifiers cached at insert and never re-keyed: a temporary identifier that no longer resolves after
        /// save is read as a deletion (evicted, no search).
        case temporaryIdentifiersKept
        /// As `persistentIdentifiers`, but an entry whose temporary identifier the context does not know is
        /// trusted to `model(for:)`, as if the remap of R4 lived for ever: the cache kept across a relaunch
        /// answers with the placeholder of a temporary identifier of the earlier launch (G24, R14).
        case temporaryIdentifiersTrusted

        init(_ faults: Faults<DTOMapper>) {
            // The shipped design without a call to the generic `design` (not inlined across modules, it looks up
            // type metadata for every pair; a fresh mapper is made at every map step's grouping).
            if faults.selected.isEmpty {
                self = .persistentIdentifiers
                return
            }
            self = faults.design([.cacheStoresObjects: .objects, .cacheWithManualEviction: .objectsWithManualEviction,
                                  .cacheTrustsModelFor: .modelForLookup, .cacheKeepsTemporaryIdentifiers: .temporaryIdentifiersKept,
                                  .cacheTrustsTemporaryIdentifiers: .temporaryIdentifiersTrusted],
                                 shipped: .persistentIdentifiers)
        }
    }

    private(set) var entries: [String: Entry] = [:]

    mutating func store(_ work: Work, for volumeID: String, design: Design) {
        switch design {
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
        /// may still be held by another live work (true unless the design reads a failure as a deletion).
        case evicted(searchStore: Bool)
    }

    /// Looks `volumeID` up as `design` does.
    mutating func lookUp(_ volumeID: String, in context: ModelContext, design: Design) -> Answer {
        guard let entry = entries[volumeID] else { return .miss }
        switch (design, entry) {
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
        guard let work = context.fetch(.identifier(id)).first as? Work, !work.isDeleted else { return nil }
        return work
    }
}

extension Fault<DTOMapper> {
    /// Mutant `cache-stores-objects`: the `objects` design.
    package static var cacheStoresObjects: Self { Self() }
    /// Mutant `forgot-cache-eviction`: the `objectsWithManualEviction` design.
    package static var cacheWithManualEviction: Self { Self() }
    /// Mutant `cache-as-designed`: the `modelForLookup` design.
    package static var cacheTrustsModelFor: Self { Self() }
    /// Mutant `cache-keeps-temporary-ids`: the `temporaryIdentifiersKept` design.
    package static var cacheKeepsTemporaryIdentifiers: Self { Self() }
    /// Mutant `cache-trusts-temporary-ids`: the `temporaryIdentifiersTrusted` design.
    package static var cacheTrustsTemporaryIdentifiers: Self { Self() }
}
