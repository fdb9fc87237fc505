/// The specification's state: the works the mapper created, by reference index, with their values
/// in the mapper's context (`current`) and in the saved store (`committed`), and the author rows.
///
/// Pure value type; every operation is the specified effect of one step on the mapper's context,
/// another context or the store.
public struct MapperModel: Sendable, Equatable {
    /// Where a work stands, seen from the mapper's context.
    public enum Lifecycle: Sendable, Equatable {
        /// Inserted in the mapper's context, not saved.
        case inserted
        /// Saved; `current` may hold unsaved changes.
        case saved
        /// Saved, and deleted in the mapper's context but not yet saved.
        case deletedPending
        /// Deleted and saved (here or elsewhere), rolled back, or left in an abandoned context.
        case gone
    }

    /// An edition model's values as vocabulary indexes (page count as the number stored).
    public struct EditionValues: Sendable, Equatable {
        public var isbn: Int?
        public var title: Int?
        public var publisher: Int?
        public var pageCount: Int?
        /// The provider the edition's DTO names (M8).
        public var provider: Int?

        var detail: String {
            CanonicalWork.editionDetail(
                isbn: isbn.map { MapperVocabulary.isbns[$0] }, title: title.map { MapperVocabulary.editionTitles[$0] },
                publisher: publisher.map { MapperVocabulary.publishers[$0] }, pageCount: pageCount)
        }
    }

    /// A work's values as vocabulary indexes.
    public struct Values: Sendable, Equatable {
        public var title: Int
        public var tags: [Int]
        public var provider: Int?
        public var synthetic: Bool
        public var volumes: [Int]
        /// One entry per edition model.
        public var editions: [EditionValues]
        /// One entry per author model: its name.
        public var authors: [Int]

        public var canonical: CanonicalWork {
            CanonicalWork(
                title: MapperVocabulary.titles[title], tags: tags.map { MapperVocabulary.tags[$0] },
                provider: provider.map { MapperVocabulary.providers[$0] },
                volumeIDs: volumes.map { MapperVocabulary.volumeIDs[$0] },
                editionISBNs: editions.map { $0.isbn.map { MapperVocabulary.isbns[$0] } },
                authors: authors.map { MapperVocabulary.authors[$0] }, editionDetails: editions.map(\.detail), synthetic: synthetic,
                editionProviders: editions.map { $0.provider.map { MapperVocabulary.providers[$0] } })
        }
    }

    public struct Work: Sendable, Equatable {
        public var lifecycle: Lifecycle
        public var current: Values
        /// The saved values; nil until the first save.
        public var committed: Values?
        /// Changed in the mapper's context since the last save.
        public var changed: Bool

        /// A work not saved yet.
        public init(lifecycle: Lifecycle, current: Values, changed: Bool = false) {
            self.lifecycle = lifecycle
            self.current = current
            self.changed = changed
        }
    }

    /// Works by reference index (`v1` is 0).
    public internal(set) var works: [Work] = []
    /// Author rows in the store.
    public internal(set) var savedAuthors = 0
    /// Author models inserted in the mapper's context and not saved.
    public internal(set) var pendingAuthors = 0

    public init() {}

    /// The next reference a created work takes.
    public var nextRef: Int { works.count }

    public func isLive(_ ref: Int) -> Bool {
        ref < works.count && (works[ref].lifecycle == .inserted || works[ref].lifecycle == .saved)
    }

    /// Whether another context may delete `ref`: saved, unchanged and not deleted here.
    public func isDeletableElsewhere(_ ref: Int) -> Bool {
        ref < works.count && works[ref].lifecycle == .saved && !works[ref].changed
    }

    /// The live works in the mapper's context, canonical and sorted.
    public var contextWorks: [CanonicalWork] {
        works.compactMap { $0.lifecycle == .inserted || $0.lifecycle == .saved ? $0.current.canonical : nil }.sorted()
    }

    /// The saved works, canonical and sorted.
    public var storeWorks: [CanonicalWork] {
        works.compactMap { work in
            guard work.lifecycle == .saved || work.lifecycle == .deletedPending else { return nil }
            return work.committed?.canonical
        }.sorted()
    }

    /// Edition rows in the store (editions live and die with their work).
    public var storeEditionCount: Int {
        works.reduce(0) { sum, work in
            guard work.lifecycle == .saved || work.lifecycle == .deletedPending, let committed = work.committed else { return sum }
            return sum + committed.editions.count
        }
    }

    // MARK: Steps

    /// The live work holding `volume`, if any (at most one does).
    func holder(of volume: Int) -> Int? {
        for ref in works.indices where isLive(ref) && works[ref].current.volumes.contains(volume) { return ref }
        return nil
    }

    /// Whether `volume` was held by a work now gone from the mapper's context (deleted and saved, here or elsewhere,
    /// rolled back or abandoned) and no live work holds it: mapping it must yield a fresh work (M10) without reading
    /// the gone one (M11), the crash class of seed 000.
    public func isStale(_ volume: Int) -> Bool {
        holder(of: volume) == nil && works.contains { $0.lifecycle == .gone && $0.current.volumes.contains(volume) }
    }

    /// How many works mapping `response` creates: a group creates one exactly when no live work holds any of its
    /// volume IDs (M9, M10), and afterwards a live work holds every one of them.
    public func createdCount(mapping response: SpecResponse) -> Int {
        var held = works.indices.filter(isLive).flatMap { works[$0].current.volumes }
        var created = 0
        for group in response.groups {
            if !group.volumes.contains(where: held.contains) { created += 1 }
            held += group.volumes
        }
        return created
    }

    /// The mapper's context saves: pending inserts and changes are written, pending deletes removed.
    public mutating func save() {
        for ref in works.indices {
            switch works[ref].lifecycle {
            case .inserted, .saved:
                works[ref].lifecycle = .saved
                works[ref].committed = works[ref].current
                works[ref].changed = false
            case .deletedPending:
                works[ref].lifecycle = .gone
            case .gone:
                break
            }
        }
        savedAuthors += pendingAuthors
        pendingAuthors = 0
    }

    /// The mapper's context rolls back (R32), or is replaced by a fresh context: pending inserts are
    /// gone, saved works return to their saved values, pending deletes are undone.
    public mutating func discardPending() {
        for ref in works.indices {
            switch works[ref].lifecycle {
            case .inserted:
                works[ref].lifecycle = .gone
            case .saved, .deletedPending:
                works[ref].lifecycle = .saved
                if let committed = works[ref].committed { works[ref].current = committed }
                works[ref].changed = false
            case .gone:
                break
            }
        }
        pendingAuthors = 0
    }

    /// The mapper's context deletes a live work (not saved yet). A pending insert is simply gone (R18).
    public mutating func delete(_ ref: Int) {
        switch works[ref].lifecycle {
        case .inserted: works[ref].lifecycle = .gone
        case .saved: works[ref].lifecycle = .deletedPending
        case .deletedPending, .gone: break
        }
    }

    /// Another context deletes a saved work and saves: its row and its editions' rows are gone (R28).
    public mutating func deleteElsewhere(_ ref: Int) {
        works[ref].lifecycle = .gone
    }
}
