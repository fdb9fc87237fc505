package import FaultPoints
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphStore

/// Turns canonical DTOs from the `/v1/*` endpoints into `Work`, `Edition` and `Author` models
/// (seed 002), deduplicating synthetic works by ISBN and reusing the works it mapped before by their
/// Google Books volume IDs (seed 000).
///
/// Every model is inserted before it is related (insert-before-relate). Each work gets the editions
/// and authors that name it by the backend's work id. Synthetic works sharing an ISBN become one
/// work; a synthetic work with an ISBN of its own, synthetic works without ISBN and non-synthetic
/// works stay alone. Subject tags and `primaryProvider` pass through unchanged.
///
/// A volume ID held by a live work of the context yields that work: mapping the same response twice
/// creates nothing. The cache maps volume IDs to persistent identifiers and never trusts them blindly:
/// an identifier taken at insert is temporary and changes at save (R2–R4), a row may have been deleted
/// here or by another context (R15, R28), and `model(for:)` never returns nil (R14). See `liveWork`.
public final class DTOMapper {
    /// The faults (production: `.shipped`).
    package let strategy: MapperStrategy
    private let cacheDesign: WorkCache.Design
    private var cache = WorkCache()

    public convenience init() { self.init(strategy: .shipped) }

    /// With faults (a mutant): for this package's targets and tests only.
    package init(strategy: MapperStrategy) {
        self.strategy = strategy
        cacheDesign = WorkCache.Design(strategy)
    }

    private init(strategy: MapperStrategy, cacheDesign: WorkCache.Design) {
        self.strategy = strategy
        self.cacheDesign = cacheDesign
    }

    /// A mapper with this one's faults and an empty cache: what `init(strategy:)` makes, without working out the
    /// cache's design from the faults again (a generic lookup of a few microseconds, paid at every map step by a
    /// target that maps each response with a fresh mapper too).
    package func withEmptyCache() -> DTOMapper { DTOMapper(strategy: strategy, cacheDesign: cacheDesign) }

    /// The number of volume IDs cached.
    public var cachedVolumeCount: Int { cache.entries.count }

    /// Forgets every cached volume ID; later mappings find their works in the context instead.
    public func clearCache() { cache.removeAll() }

    /// Evicts `work`'s volume IDs. Only the object cache of before seed 000 needs this at deletion
    /// sites; the shipped cache notices deletions by itself.
    public func removeWorkFromCache(_ work: Work) { cache.evict(work) }

    /// Decodes a `/v1/*` response body and maps it. A body that does not decode throws before anything
    /// is inserted: the context is left as it was.
    public func mapToWorks(json body: Data, context: ModelContext) throws(DTODecodingError) -> [Work] {
        let data = try SearchResponseData.decode(from: body)
        return mapToWorks(data, context: context)
    }

    /// Maps `data` into `context` and returns its works in response order, each once.
    public func mapToWorks(_ data: SearchResponseData, context: ModelContext) -> [Work] {
        mapToWorks(data, context: context, checkedAbsent: [])
    }

    /// Maps `data` into `context`. A group whose volume IDs are all in `checkedAbsent` (found held by no work before
    /// the caller awaited its response) is not looked for again, only among the works this mapping made
    /// (`EnrichmentQueue`'s fault `enrichmentDuplicateWork`); shipped callers pass none.
    func mapToWorks(_ data: SearchResponseData, context: ModelContext, checkedAbsent: [String]) -> [Work] {
        var returned: [Work] = []
        for group in WorkGrouping.groups(data, strategy) {
            let work: Work
            let trusted = !checkedAbsent.isEmpty && group.volumeIDs.allSatisfy(checkedAbsent.contains)
            if let existing = trusted
                ? group.volumeIDs.lazy.compactMap({ volumeID in returned.first(where: { $0.googleBooksVolumeIDs.contains(volumeID) }) }).first
                : findExistingWork(group.volumeIDs, context) {
                work = existing
                update(work, from: group, data, context)
            } else {
                work = insertWork(group, data, context)
            }
            let volumeIDs = work.googleBooksVolumeIDs
            for volumeID in group.volumeIDs where volumeIDs.contains(volumeID) {
                cache.store(work, for: volumeID, design: cacheDesign)
            }
            if !returned.contains(where: { $0 === work }) { returned.append(work) }
        }
        return returned
    }

    /// The live work of `context` whose Google Books volume IDs include `volumeID`, or nil. A fetch reads
    /// the store and the context's pending inserts (R16); a pending delete is still fetched (R18) and skipped.
    public static func work(holding volumeID: String, in context: ModelContext) -> Work? {
        let holding = FetchDescriptor<Work>(predicate: { $0.googleBooksVolumeIDs.contains(volumeID) })
        return (try? context.fetch(holding))?.first { !$0.isDeleted }
    }

    /// Whether a live work of `context` holds `volumeID`, found as a mapping finds it (the cache, then the context).
    func holdsWork(_ volumeID: String, in context: ModelContext) -> Bool { findExistingWork([volumeID], context) != nil }

    // MARK: Steps

    /// The live work the first of `volumeIDs` that any live work holds names, or nil.
    private func findExistingWork(_ volumeIDs: [String], _ context: ModelContext) -> Work? {
        for volumeID in volumeIDs {
            switch cache.lookUp(volumeID, in: context, design: cacheDesign) {
            case .hit(let work):
                return work
            case .evicted(searchStore: false):
                continue
            case .miss, .evicted(searchStore: true):
                if let work = Self.work(holding: volumeID, in: context) { return work }
            }
        }
        return nil
    }

    private func insertWork(_ group: WorkGroup, _ data: SearchResponseData, _ context: ModelContext) -> Work {
        let first = data.works[group.members[0]]
        let work = Work(title: first.title, subjectTags: tags(first.subjectTags), synthetic: first.synthetic,
                        primaryProvider: first.primaryProvider, googleBooksVolumeIDs: group.volumeIDs)
        context.insert(work)
        for e in group.editions { addEdition(data.editions[e], to: work, context) }
        var names: [String] = []
        for a in group.authors where !names.contains(data.authors[a].name) && names.count < Self.maxAuthors {
            names.append(data.authors[a].name)
            addAuthor(data.authors[a], to: work, context)
        }
        return work
    }

    /// A reused work takes the response's title, tags, `synthetic` and provider, and gains the volume IDs no
    /// live work holds, the editions with an ISBN it lacks and the authors with a name it lacks.
    private func update(_ work: Work, from group: WorkGroup, _ data: SearchResponseData, _ context: ModelContext) {
        let first = data.works[group.members[0]]
        work.title = first.title
        work.subjectTags = tags(first.subjectTags)
        work.synthetic = first.synthetic
        work.primaryProvider = first.primaryProvider
        var volumeIDs = work.googleBooksVolumeIDs
        for volumeID in group.volumeIDs where !volumeIDs.contains(volumeID) && Self.work(holding: volumeID, in: context) == nil {
            volumeIDs.append(volumeID)
        }
        work.googleBooksVolumeIDs = volumeIDs
        let knownISBNs = work.editions.map(\.isbn)
        for e in group.editions {
            let edition = data.editions[e]
            if let isbn = edition.primaryISBN, !knownISBNs.contains(isbn) { addEdition(edition, to: work, context) }
        }
        var knownNames = work.authors.map(\.name)
        for a in group.authors where !knownNames.contains(data.authors[a].name) && knownNames.count < Self.maxAuthors {
            knownNames.append(data.authors[a].name)
            addAuthor(data.authors[a], to: work, context)
        }
    }

    private func addEdition(_ dto: EditionDTO, to work: Work, _ context: ModelContext) {
        let edition = Edition(isbn: dto.primaryISBN, publisher: dto.publisher, pageCount: dto.pageCount.flatMap(Self.storablePageCount),
                              editionTitle: dto.title, primaryProvider: dto.primaryProvider)
        context.insert(edition)
        edition.work = work
    }

    /// How many authors a work may hold (the schema's maxCount; more fail validation at save, 1590): the first ones
    /// are kept, those it held before, then the response's in order (rule M14).
    private static let maxAuthors = Work.maximumAuthors

    /// A page count the schema accepts (`Edition.pageCountRange`), else nil: backends send 0 for an unknown count,
    /// which would make the whole save fail (rule M14).
    static func storablePageCount(_ count: Int) -> Int? {
        Edition.pageCountRange.contains(count) ? count : nil
    }

    private func addAuthor(_ dto: AuthorDTO, to work: Work, _ context: ModelContext) {
        let author = Author(name: dto.name)
        context.insert(author)
        author.works = [work]
    }

    private func tags(_ tags: [String]) -> [String] {
        guard strategy.selects(.renormalizedTags) else { return tags }
        var seen: [String] = []
        for tag in tags.map({ $0.capitalized }).sorted() where !seen.contains(tag) { seen.append(tag) }
        return seen
    }
}

/// The mapper's faults: designs from the seeds' history, each a `Fault<DTOMapper>` declared beside its branch.
package typealias MapperStrategy = Faults<DTOMapper>

extension Fault<DTOMapper> {
    /// Mutant `genres-renormalized`: the client normalises subject tags again (capitalised, sorted, without repeats).
    package static var renormalizedTags: Self { Self() }
}
