/// The mapper's strategy points. Production uses `.shipped`; every other value is a faulty design
/// from the seeds' history, selectable as a mutant by the `mapper` target (`package` access: not part of
/// the library's public API).
package struct MapperStrategy: Sendable, Equatable {
    /// How the volume ID → work cache holds and looks up works.
    package enum Cache: String, Sendable, CaseIterable {
        /// Persistent identifiers; a safe lookup (registered pending insert, else a fetch by identifier,
        /// then not deleted and still holding the volume ID); re-keys identifiers that changed at save;
        /// on a miss, searches the context's live works by volume ID.
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
    }

    /// How synthetic works are grouped by ISBN.
    package enum Deduplication: String, Sendable, CaseIterable {
        /// Synthetic works sharing an ISBN merge (transitively); every other work stays alone.
        case sharedISBN
        /// Seed 002 as printed: a synthetic work whose ISBN no other shares is dropped.
        case dropSingletons
        /// Seed 002 as printed: synthetic works without ISBN are grouped under "" and merged.
        case groupMissingISBN
    }

    /// Which editions and authors a work gets.
    package enum Relations: String, Sendable, CaseIterable {
        /// The ones naming the work (or a member of its group) by work id.
        case byWorkID
        /// Seed 002: `insertEditions(data.editions, …)` for every work.
        case allEditionsToEveryWork
        /// Seed 002: `insertAuthors(data.authors, …)` for every work.
        case allAuthorsToEveryWork
    }

    /// What happens to subject tags.
    package enum Tags: String, Sendable, CaseIterable {
        /// Applied as the backend sent them (it normalises them).
        case passThrough
        /// The client normalises them again (capitalised, sorted, without repeats).
        case renormalized
    }

    package var cache: Cache
    package var deduplication: Deduplication
    package var relations: Relations
    package var tags: Tags

    package init(cache: Cache = .persistentIdentifiers, deduplication: Deduplication = .sharedISBN,
                relations: Relations = .byWorkID, tags: Tags = .passThrough) {
        self.cache = cache
        self.deduplication = deduplication
        self.relations = relations
        self.tags = tags
    }

    /// What production uses.
    package static let shipped = MapperStrategy()
}
