import BooksTracker
import GraphStore
import Testing

@Suite("Lookups and stale references: R14–R16, R28")
struct LookupTests {
    @Test("A saved delete by another context invalidates: reads trap (R28); registeredModel follows R15",
          arguments: StoreBehavior.RegisteredAfterForeignDelete.allCases)
    func foreignDelete(_ mode: StoreBehavior.RegisteredAfterForeignDelete) throws {
        let container = makeContainer(behavior: StoreBehavior(registeredAfterForeignDelete: mode))
        let first = ModelContext(container), second = ModelContext(container)
        let work = Work(title: "Dune")
        first.insert(work)
        try first.save()
        let id = try #require(work.persistentModelID)
        let other = second.model(for: id)
        #expect((other as? Work)?.title == "Dune")
        second.delete(other)
        try second.save()
        #expect(first.fetch(.identifier(id)).isEmpty)
        #expect((first.registeredModel(for: id) === work) == (mode == .stale))
        _ = work.title
        #expect(container.traps.map(\.code) == [.invalidatedBackingData])
    }

    @Test("model(for:) never returns nil: a placeholder for a missing row traps on read (R14)")
    func placeholder() {
        let container = makeContainer()
        let context = ModelContext(container)
        let id = PersistentIdentifier(entityName: "Work", kind: .permanent, storeIdentifier: "store", number: 42)
        let model = context.model(for: id)
        #expect(model.persistentModelID == id)
        _ = (model as? Work)?.title
        #expect(container.traps.map(\.code) == [.invalidatedBackingData])
    }

    @Test("A fetch by attribute includes pending inserts and pending deletes (R16, R18)")
    func fetchByAttribute() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let saved = Work(title: "Dune")
        context.insert(saved)
        try context.save()
        context.insert(Work(title: "Dune"))
        context.delete(saved)
        let found = context.fetch(.attribute(entity: "Work", attribute: "title", equals: .string("Dune")))
        #expect(found.count == 2)
    }

    @Test("The CloudKit check names the local schema's deny rule and passes the CloudKit schema (R23, R24)")
    func cloudKit() {
        let local = BooksTrackerSchema.schema(.local).cloudKitViolations()
        #expect(local.contains(CloudKitViolation(kind: .denyDeleteRule, entity: "Edition", property: "userLibraryEntries")))
        #expect(local.contains(CloudKitViolation(kind: .requiredRelationship, entity: "UserLibraryEntry", property: "work")))
        #expect(BooksTrackerSchema.schema(.cloudKit).cloudKitViolations().isEmpty)
    }

    @Test("The CloudKit configuration refuses deleting an edition an entry holds, before the store saves")
    func cloudKitGuard() throws {
        let container = makeContainer(.cloudKit)
        let context = ModelContext(container)
        let library = Library(context: context, policy: LibraryPolicy(configuration: .cloudKit))
        let work = Work(title: "W"), edition = Edition()
        context.insert(work)
        context.insert(edition)
        let entry = library.createOwnedEntry(for: work, edition: edition)
        try library.save()
        context.delete(edition)
        #expect(throws: LibrarySaveError.refused([.editionInUse])) { try library.save() }
        context.delete(entry)
        try library.save()
        #expect(container.rows.count == 1)
    }
}
