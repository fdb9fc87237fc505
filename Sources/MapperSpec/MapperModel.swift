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
                authors: authors.map { MapperVocabulary.authors[$0] }, editionDetails: editions.map(\.detail))
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
    public private(set) var works: [Work] = []
    /// Author rows in the store.
    public private(set) var savedAuthors = 0
    /// Author models inserted in the mapper's context and not saved.
    public private(set) var pendingAuthors = 0

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

    /// How many works mapping `response` would create: the mapping run on a copy of the model.
    public func createdCount(mapping response: SpecResponse) -> Int {
        var copy = self
        return copy.map(response).filter { $0 >= works.count }.count
    }

    /// Maps `response` in the mapper's context (M1–M10); returns the references of the returned
    /// works in return order (group order, each once).
    public mutating func map(_ response: SpecResponse) -> [Int] {
        var decided = DecidingRules()
        return map(response, decided: &decided)
    }

    /// Maps `response` as `map(_:)` does and returns, beside the references, the rules whose function decided a part
    /// of the result, in the order the mapping decides them (grouping, reuse, then the works' values).
    public mutating func mapDeciding(_ response: SpecResponse) -> (refs: [Int], decided: [String]) {
        var decided = DecidingRules(recording: true)
        let refs = map(response, decided: &decided)
        return (refs, decided.rules)
    }

    private mutating func map(_ response: SpecResponse, decided: inout DecidingRules) -> [Int] {
        var returned: [Int] = []
        for group in response.groups {
            if decided.recording { decided.add(response.groupingRule(group)) }
            // M9, M10: a volume ID a live work holds yields that work (the holder of the first such volume).
            let known = group.volumes.lazy.compactMap(holder(of:)).first
            if decided.recording { decided.add(reuseRules(group, known: known)) }
            let ref = known ?? newWork()
            works[ref].current = mapped(group, response, onto: works[ref].current, isNew: known == nil, decided: &decided)
            if works[ref].lifecycle == .saved { works[ref].changed = true }
            if !returned.contains(ref) { returned.append(ref) }
        }
        if decided.recording {
            // M5: every edition goes to the work it names, or nowhere; M6 the same for every author.
            if !response.editions.isEmpty { decided.add(MapperRules.ownEditions) }
            if !response.authors.isEmpty { decided.add(MapperRules.ownAuthors) }
        }
        return returned
    }

    /// M9–M11: the rules deciding which work `group` maps onto: the live work `known` holding one of its volume IDs
    /// (M9); else, when a volume ID of the group was held by a work no longer live, a fresh work (M10), and when that
    /// work is gone from the context (deleted and saved, deleted elsewhere, rolled back, abandoned) its model must not
    /// be read (M11).
    func reuseRules(_ group: MappingGroup, known: Int?) -> [String] {
        if known != nil { return [MapperRules.knownVolumeReused] }
        let former = works.indices.filter { !isLive($0) && !Set(works[$0].current.volumes).isDisjoint(with: group.volumes) }
        guard !former.isEmpty else { return [] }
        let gone = former.contains { works[$0].lifecycle == .gone }
        return [MapperRules.deletedYieldsFresh] + (gone ? [MapperRules.noStaleRead] : [])
    }

    /// A new, empty pending work; returns its reference.
    private mutating func newWork() -> Int {
        works.append(Work(lifecycle: .inserted, current: Values(title: 0, tags: [], provider: nil, volumes: [], editions: [], authors: [])))
        return works.count - 1
    }

    /// M2, M5–M9, M14: a work's values after mapping `group` onto `old`: the first member's title, tags (M7) and
    /// provider (M8); the volume IDs no live work holds; the group's editions whose ISBN `old` lacks (all of them,
    /// ISBN or not, for a new work, M5) and its authors whose name the work lacks (M6), each a model of its own.
    private mutating func mapped(_ group: MappingGroup, _ response: SpecResponse, onto old: Values, isNew: Bool,
                                 decided: inout DecidingRules) -> Values {
        let first = response.works[group.members[0]]
        let oldISBNs = old.editions.map(\.isbn)
        let added = group.editions.map { response.editions[$0] }
            .filter { isNew || ($0.primaryISBN != nil && !oldISBNs.contains($0.primaryISBN)) }
        let names = group.authors.map { response.authors[$0].name }
        let authors = Self.authorsGained(names, holding: old.authors)
        pendingAuthors += authors.count
        if decided.recording {
            if !first.tags.isEmpty { decided.add(MapperRules.tagsPassThrough) }
            if first.provider != nil { decided.add(MapperRules.providerKept) }
            if added.contains(where: Self.editionAtSchemaLimit) || Self.authorsAtSchemaLimit(names, holding: old.authors, gained: authors) {
                decided.add(MapperRules.savableGraph)
            }
        }
        return Values(title: first.title, tags: first.tags, provider: first.provider,
                      volumes: old.volumes + group.volumes.filter { holder(of: $0) == nil },
                      editions: old.editions + added.map(Self.editionModel), authors: old.authors + authors)
    }

    /// M5, M14: the model an edition becomes: its identifying ISBN, title and publisher; its page count only when the
    /// schema's range allows it (0, a backend's "unknown", is not stored).
    static func editionModel(_ edition: SpecResponse.Edition) -> EditionValues {
        EditionValues(isbn: edition.primaryISBN, title: edition.title, publisher: edition.publisher,
                      pageCount: edition.pageCount.map { MapperVocabulary.pageCounts[$0] }.flatMap {
                          MapperVocabulary.pageCountRange.contains($0) ? $0 : nil })
    }

    /// M14 decides the edition's model: its ISBN is a further one (no primary sent), or its page count lies outside
    /// the schema's range and is not stored.
    static func editionAtSchemaLimit(_ edition: SpecResponse.Edition) -> Bool {
        let dropped = edition.pageCount.map { !MapperVocabulary.pageCountRange.contains(MapperVocabulary.pageCounts[$0]) } ?? false
        return dropped || (edition.isbn == nil && !edition.isbns.isEmpty)
    }

    /// M6, M9, M14: the authors a work holding `held` gains from `names` (response order): each name it lacks, once
    /// (a repeated name is one author), while it has fewer than the schema's `maxAuthors`.
    static func authorsGained(_ names: [Int], holding held: [Int]) -> [Int] {
        var gained: [Int] = []
        for name in names where !held.contains(name) && !gained.contains(name) && held.count + gained.count < MapperVocabulary.maxAuthors {
            gained.append(name)
        }
        return gained
    }

    /// M14 decides the work's authors: a name it lacks was not gained, the schema's `maxAuthors` being reached.
    static func authorsAtSchemaLimit(_ names: [Int], holding held: [Int], gained: [Int]) -> Bool {
        names.contains { !held.contains($0) && !gained.contains($0) }
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
