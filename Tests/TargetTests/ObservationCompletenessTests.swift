import BooksSpec
import BooksTracker
import CacheSpec
import CacheTarget
import Foundation
import GlassSync
import GraphFuzzEngine
import GraphSpec
import GraphStore
@testable import GraphTarget
import MapperSpec
@testable import MapperTarget
import PersistentCache
import SyncSpec
import Testing

/// Every stored property of a production type an observation covers is compared by that observation or excluded
/// here with the reason; a property that is neither fails. The compared ones are shown to change the observation.
@Suite("Observation completeness")
struct ObservationCompletenessTests {
    /// What an observation does with one production type's stored properties.
    struct Coverage {
        var type: String
        var compared: [String]
        var excluded: [(property: String, reason: String)]

        /// The properties neither compared nor excluded, and those listed both ways or twice.
        func problems(_ stored: [String]) -> [String] {
            let listed = compared + excluded.map(\.property)
            return stored.filter { !listed.contains($0) }.map { "\(type).\($0): neither compared nor excluded" }
                + listed.filter { !stored.contains($0) }.map { "\(type).\($0): listed, but not a stored property" }
                + listed.indices.filter { i in listed[..<i].contains(listed[i]) }.map { "\(type).\(listed[$0]): listed twice" }
                + excluded.filter { $0.reason.isEmpty }.map { "\(type).\($0.property): excluded without a reason" }
        }
    }

    static func stored(_ entity: EntitySchema) -> [String] { entity.attributes.map(\.name) + entity.relationships.map(\.name) }

    /// The mapper target reads works (`MapperSystem.canonicalWork`, and the store's rows alike).
    static let mapper = [
        Coverage(type: "Work", compared: ["title", "subjectTags", "synthetic", "primaryProvider", "googleBooksVolumeIDs", "authors", "editions"],
                 excluded: [("firstPublicationYear", "no DTO carries it: the mapper never writes it"),
                            ("originalLanguage", "no DTO carries it: the mapper never writes it"),
                            ("userLibraryEntries", "the reader's entries: the mapper never touches them (the graph target's)")]),
        Coverage(type: "Edition", compared: ["isbn", "publisher", "pageCount", "editionTitle", "primaryProvider"],
                 excluded: [("publicationDate", "no edition DTO carries it: the mapper never writes it"),
                            ("format", "no edition DTO carries it: the mapper leaves the default"),
                            ("coverImageURL", "no edition DTO carries it: the mapper never writes it"),
                            ("work", "the inverse of Work.editions, which is compared (G7 keeps the two sides)"),
                            ("userLibraryEntries", "the reader's entries: the mapper never touches them")]),
        Coverage(type: "Author", compared: ["name"],
                 excluded: [("nationality", "no author DTO carries it: the mapper never writes it"),
                            ("works", "the inverse of Work.authors, which is compared (G7 keeps the two sides)")]),
    ]

    @Test("the mapper's observation covers every stored property of Work, Edition and Author")
    func mapperProperties() {
        let entities = Array(BooksTrackerSchema.schema(.cloudKit).entities.prefix(3))
        let problems = zip(Self.mapper, entities).flatMap { $0.problems(Self.stored($1)) }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("each compared attribute of a work and its edition changes the mapper's observation")
    func mapperComparesWhatItLists() {
        let container = BooksTrackerSchema.container(.cloudKit)
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let edition = Edition(isbn: "978-0")
        context.insert(edition)
        edition.work = work
        let author = Author(name: "Frank")
        context.insert(author)
        author.works = [work]
        let changes: [(String, () -> Void)] = [
            ("Work.title", { work.title = "Emma" }), ("Work.subjectTags", { work.subjectTags = ["Fiction"] }),
            ("Work.synthetic", { work.synthetic = true }), ("Work.primaryProvider", { work.primaryProvider = "isbndb" }),
            ("Work.googleBooksVolumeIDs", { work.googleBooksVolumeIDs = ["vol-A"] }),
            ("Edition.isbn", { edition.isbn = "978-1" }),
            ("Edition.publisher", { edition.publisher = "Ace" }), ("Edition.pageCount", { edition.pageCount = 412 }),
            ("Edition.editionTitle", { edition.editionTitle = "Dune (reissue)" }),
            ("Edition.primaryProvider", { edition.primaryProvider = "openlibrary" }), ("Author.name", { author.name = "Herbert" }),
            ("Work.editions", { edition.work = nil }), ("Work.authors", { author.works = [] }),
        ]
        for (property, change) in changes {
            let before = MapperSystem.canonicalWork(work)
            change()
            #expect(MapperSystem.canonicalWork(work) != before, "\(property) changed, the observation did not")
        }
    }

    @Test("the graph target's saved rows carry every attribute and relationship of every BooksTracker entity")
    func graphRows() throws {
        let system = try GraphSystem(config: GraphConfig(schema: .cloudKit))
        for entity in 0..<4 { _ = try system.run(.create(result: Ref(entity), entity: entity, variant: 0, context: 0)) }
        // The library saves an entry only with its work.
        let entryWork = BooksTrackerSchema.schema(.cloudKit).entities[3].relationshipIndex(named: "work")!
        _ = try system.run(.relate(Ref(3), relationship: entryWork, target: Ref(0)))
        let saved = try system.run(.save(context: 0))
        guard case .saved(let state) = saved else {
            Issue.record("the save of one model of each entity observed \(saved)")
            return
        }
        let declarations = BooksTrackerSchema.schema(.cloudKit).entities
        #expect(state.rows.count == declarations.count)
        for row in state.rows {
            guard let declaration = declarations.first(where: { $0.name == row.entityName }) else {
                Issue.record("a saved row of an unknown entity \(row.entityName)")
                continue
            }
            #expect(row.values.count == declaration.attributes.count, "\(declaration.name): attributes left out of the saved rows")
            #expect(row.links.count == declaration.relationships.count, "\(declaration.name): relationships left out of the saved rows")
        }
    }

    @Test("the cache's observation compares a value's bytes; the write stamp is excluded")
    func cacheEntry() {
        let coverage = Coverage(type: "MemoryEntry", compared: ["data"],
                                excluded: [("writtenAt", "not read by the app: C4 observes expiry through reads after the clock moves")])
        let entry = MemoryEntry(data: CacheTargetValue.bytes(CacheValueSpec(tag: 3, length: 8), key: 1), writtenAt: Date(timeIntervalSince1970: 0))
        let problems = coverage.problems(Mirror(reflecting: entry).children.compactMap(\.label))
        #expect(problems.isEmpty, "\(problems)")
        var flipped = entry.data
        flipped[5] ^= 1
        #expect(CacheTargetValue.observe(flipped, key: 1) != CacheTargetValue.observe(entry.data, key: 1))
    }

    @Test("the sync observation compares every field of an item the app reads")
    func syncItem() {
        let coverage = Coverage(type: "ItemRead", compared: ["id", "code", "quantity"], excluded: [])
        let item = ItemRead(id: RecordID(origin: 1, serial: 1), code: 7, quantity: 2)
        let problems = coverage.problems(Mirror(reflecting: item).children.compactMap(\.label))
        #expect(problems.isEmpty, "\(problems)")
        let read = SpecItemRead(item: 0, quantity: 2, code: 7)
        for changed in [SpecItemRead(item: 1, quantity: 2, code: 7), SpecItemRead(item: 0, quantity: 3, code: 7), SpecItemRead(item: 0, quantity: 2, code: 8)] {
            #expect(SpecCollectionRead(device: 0, project: 0, collection: .glassItems, items: [changed])
                        != SpecCollectionRead(device: 0, project: 0, collection: .glassItems, items: [read]))
        }
    }
}
