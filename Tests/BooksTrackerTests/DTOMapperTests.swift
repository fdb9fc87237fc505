import Foundation
import GraphStore
import Testing
@testable import BooksTracker

/// A container with traps recorded, so a stale read is a test failure, not a crash.
private func makeContainer(_ behavior: StoreBehavior = StoreBehavior()) -> ModelContainer {
    BooksTrackerSchema.container(.cloudKit, store: ModelConfiguration(trapPolicy: .record, behavior: behavior))
}

private func decode(_ fixture: Fixture) throws -> SearchResponseData {
    try SearchResponseData.decode(from: try fixture.data())
}

private struct Summary: Equatable, CustomStringConvertible {
    var title: String
    var tags: [String]
    var provider: String?
    var volumeIDs: [String]
    var isbns: [String?]
    var authors: [String]

    init(_ work: Work) {
        title = work.title
        tags = work.subjectTags
        provider = work.primaryProvider
        volumeIDs = work.googleBooksVolumeIDs
        isbns = work.editions.map(\.isbn).sorted { ($0 ?? "") < ($1 ?? "") }
        authors = work.authors.map(\.name).sorted()
    }

    init(_ title: String, _ tags: [String], _ provider: String?, _ volumeIDs: [String], _ isbns: [String?], _ authors: [String]) {
        (self.title, self.tags, self.provider, self.volumeIDs, self.isbns, self.authors) = (title, tags, provider, volumeIDs, isbns, authors)
    }

    var description: String { "\(title) \(tags) \(provider ?? "-") \(volumeIDs) \(isbns) \(authors)" }
}

private func rowCount(_ container: ModelContainer, _ entity: String) -> Int {
    let index = container.schema.entityIndex(named: entity)
    return container.rows.values.filter { $0.entity == index }.count
}

@Suite("DTOMapper")
struct DTOMapperTests {
    @Test("Five synthetic works of one ISBN become one work with every edition and volume ID (US-2)")
    func gatsbyMerges() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let mapper = DTOMapper()
        let works = mapper.mapToWorks(try decode(.gatsby), context: context)
        #expect(works.count == 1)
        let summary = Summary(works[0])
        #expect(summary == Summary("The Great Gatsby", ["Fiction", "Classics"], "google-books", ["AAA1", "AAA2", "AAA3", "AAA4"],
                                   ["9780743273565", "9780743273565", "9780743273565"], ["F. Scott Fitzgerald"]))
        #expect(works[0].synthetic == true)
        #expect(container.traps.isEmpty)
    }

    @Test("Singletons, works without ISBN and non-synthetic works stay alone; stray editions are ignored")
    func mixedResponse() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let mapper = DTOMapper()
        let works = mapper.mapToWorks(try decode(.mixed), context: context)
        let summaries = works.map { Summary($0) }
        let both = ["Neil Gaiman", "Terry Pratchett"]
        #expect(summaries == [
            Summary("Good Omens", ["Fantasy", "Humor"], "openlibrary", ["GO-1"], ["9780060853983"], both),
            Summary("Good Omens", ["Fantasy"], "google-books", ["GO-2"], ["9780060853983"], both),
            Summary("Good Omens: The Nice and Accurate Prophecies", ["Fantasy"], "google-books", ["GO-3"], ["9780552171892"], both),
            Summary("Nation", [], "google-books", ["NS-1"], [nil], ["Terry Pratchett"]),
            Summary("Nation", [], "google-books", ["NS-2"], [], ["Terry Pratchett"]),
        ])
        try context.save()
        #expect(rowCount(container, "Edition") == 4)
        #expect(rowCount(container, "Author") == 8)
    }

    @Test("Mapping the same response twice creates nothing, across a save, R4 either way, a fresh context and a cleared cache",
          arguments: StoreBehavior.TemporaryIDAfterSave.allCases)
    func sameResponseTwice(temporaryIDs: StoreBehavior.TemporaryIDAfterSave) throws {
        let container = makeContainer(StoreBehavior(temporaryIDAfterSave: temporaryIDs))
        var context = ModelContext(container)
        let mapper = DTOMapper()
        let dune = try decode(.dune)
        let first = mapper.mapToWorks(dune, context: context)
        #expect(mapper.mapToWorks(dune, context: context).map { $0 === first[0] } == [true])
        try context.save()
        let afterSave = mapper.mapToWorks(dune, context: context)
        #expect(afterSave.count == 1 && afterSave[0] === first[0])
        context = ModelContext(container)
        let fresh = mapper.mapToWorks(dune, context: context)
        #expect(fresh.count == 1 && fresh[0].persistentModelID == first[0].persistentModelID)
        mapper.clearCache()
        #expect(mapper.mapToWorks(dune, context: context).map { $0 === fresh[0] } == [true])
        try context.save()
        #expect(rowCount(container, "Work") == 1)
        #expect(rowCount(container, "Edition") == 2)
        #expect(rowCount(container, "Author") == 1)
        #expect(container.traps.isEmpty)
    }

    @Test("A work deleted here, deleted elsewhere or rolled back yields a fresh work, and nothing stale is read")
    func deletedYieldsFresh() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let mapper = DTOMapper()
        let dune = try decode(.dune)

        let inserted = mapper.mapToWorks(dune, context: context)[0]
        context.rollback()
        let afterRollback = mapper.mapToWorks(dune, context: context)[0]
        #expect(afterRollback !== inserted && afterRollback.modelContext === context)

        try context.save()
        context.delete(afterRollback)
        let afterDelete = mapper.mapToWorks(dune, context: context)[0]
        #expect(afterDelete !== afterRollback && !afterDelete.isDeleted)
        try context.save()

        let other = ModelContext(container)
        let id = try #require(afterDelete.persistentModelID)
        other.delete(try #require(other.fetch(.identifier(id)).first))
        try other.save()
        let afterForeignDelete = mapper.mapToWorks(dune, context: context)[0]
        #expect(afterForeignDelete !== afterDelete && afterForeignDelete.persistentModelID?.isTemporary == true)
        try context.save()
        #expect(rowCount(container, "Work") == 1)
        #expect(container.traps.isEmpty)
    }

    @Test("Insert before relate: no trap even where linking a new model to a registered one traps (R10)")
    func insertBeforeRelate() throws {
        let container = makeContainer(StoreBehavior(newModelLink: .trap))
        let context = ModelContext(container)
        let mapper = DTOMapper()
        _ = mapper.mapToWorks(try decode(.mixed), context: context)
        _ = mapper.mapToWorks(try decode(.gatsby), context: context)
        try context.save()
        #expect(container.traps.isEmpty)
    }

    @Test("Malformed and truncated responses throw the typed error and leave the context unchanged",
          arguments: Fixture.malformed)
    func malformedInsertsNothing(fixture: Fixture) throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let mapper = DTOMapper()
        _ = try mapper.mapToWorks(json: try Fixture.dune.data(), context: context)
        try context.save()
        let rows = container.rows
        let cached = mapper.cachedVolumeCount
        #expect(throws: DTODecodingError.self) { try mapper.mapToWorks(json: try fixture.data(), context: context) }
        #expect(!context.hasChanges)
        #expect(container.rows == rows)
        #expect(mapper.cachedVolumeCount == cached)
        #expect(container.traps.isEmpty)
    }

    @Test("The mapping attributes live on Work: the CloudKit configuration still mirrors, the local one names only its deny rule")
    func mappingSchema() {
        #expect(BooksTrackerSchema.schema(.cloudKit).cloudKitViolations().isEmpty)
        #expect(BooksTrackerSchema.schema(.local).cloudKitViolations().map(\.kind) == [.denyDeleteRule, .requiredRelationship])
        let work = BooksTrackerSchema.schema(.cloudKit).entities[0]
        for name in ["subjectTags", "synthetic", "primaryProvider", "googleBooksVolumeIDs"] {
            let attribute = work.attributes.first { $0.name == name }
            #expect(attribute.map { $0.isOptional || !$0.defaultValue.isNull } == true, "\(name)")
        }
        #expect(!BooksTrackerSchema.schema(.cloudKit).entities.contains { $0.name == "WorkProvenance" })
    }

    @Test("Deleting a mapped work leaves nothing of it behind: its attributes go with its row")
    func deleteLeavesNothing() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let mapper = DTOMapper()
        let works = mapper.mapToWorks(try decode(.gatsby), context: context)
        try context.save()
        #expect(rowCount(container, "Work") == 1)
        context.delete(works[0])
        try context.save()
        #expect(rowCount(container, "Work") == 0)
        #expect(rowCount(container, "Edition") == 0)
        #expect(DTOMapper.work(holding: "AAA1", in: context) == nil)
        #expect(container.traps.isEmpty)
    }

    @Test("The seed's model(for:) design reads a placeholder after a fresh context (R14)")
    func modelForLookupTraps() throws {
        let container = makeContainer()
        var context = ModelContext(container)
        let mapper = DTOMapper(strategy: MapperStrategy(.cacheTrustsModelFor))
        let dune = try decode(.dune)
        _ = mapper.mapToWorks(dune, context: context)
        context = ModelContext(container)
        _ = mapper.mapToWorks(dune, context: context)
        #expect(container.traps.first?.code == .invalidatedBackingData)
    }
}
