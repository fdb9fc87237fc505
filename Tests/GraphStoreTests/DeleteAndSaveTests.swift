import BooksTracker
import GraphStore
import Testing

@Suite("Delete rules, validation, failed saves, rollback: R18–R22, R25, R32")
struct DeleteAndSaveTests {
    @Test("Delete marks; cascade runs at save; a saved delete detaches the model (R18, R19, R27)")
    func cascadeAtSave() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let entry = UserLibraryEntry.createWishlistEntry(for: work, context: context)
        try context.save()
        context.delete(work)
        #expect(work.isDeleted)
        #expect(!entry.isDeleted)
        try context.save()
        #expect(!work.isDeleted && work.modelContext == nil)
        #expect(entry.modelContext == nil)
        #expect(work.title == "Dune")
        #expect(container.rows.isEmpty)
        work.title = "X"
        #expect(container.traps.map(\.code) == [.mutatingDeletedModel])
    }

    @Test("Eager delete rules (a store fault) cascade inside delete")
    func eager() throws {
        let container = makeContainer(behavior: StoreBehavior(faults: [.deleteRulesAtDelete]))
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let entry = UserLibraryEntry.createWishlistEntry(for: work, context: context)
        context.delete(work)
        #expect(entry.isDeleted)
    }

    @Test("Deny fails at save with 1600; a failed save keeps pending changes and the rows (R21, R22)")
    func deny() throws {
        let container = makeContainer(.local)
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        let edition = Edition(isbn: "1")
        context.insert(work)
        context.insert(edition)
        edition.work = work
        _ = UserLibraryEntry.createOwnedEntry(for: work, edition: edition, context: context)
        try context.save()
        let rows = container.rows
        context.delete(edition)
        #expect(throws: SaveError(issues: [ValidationIssue(code: 1600, entity: "Edition", key: "userLibraryEntries", object: edition.persistentModelID)])) {
            try context.save()
        }
        #expect(container.rows == rows)
        #expect(context.hasChanges && edition.isDeleted)
        context.rollback()
        #expect(!edition.isDeleted && !context.hasChanges)
    }

    @Test("Validation aggregates failures as 1560 (R25); required relationship 1570; ranges and lengths")
    func aggregate() {
        let container = makeContainer(.local)
        let context = ModelContext(container)
        let entry = UserLibraryEntry()
        entry.rating = 9
        context.insert(entry)
        context.insert(Author(name: ""))
        do {
            try context.save()
            Issue.record("save should fail")
        } catch {
            #expect(error.code == 1560)
            #expect(error.issues.map(\.code) == [1570, 1610, 1670])
        }
    }

    @Test("Too many in a to-many fails with 1590")
    func maxCount() {
        let container = makeContainer()
        let context = ModelContext(container)
        let work = Work(title: "W")
        context.insert(work)
        work.authors = (1...4).map { Author(name: "A\($0)") }
        #expect(throws: SaveError.self) { try context.save() }
        #expect((try? context.save()) == nil)
    }

    @Test("A partial failed save (a store fault) writes changed rows")
    func partial() throws {
        let container = makeContainer(behavior: StoreBehavior(faults: [.partialFailedSave]))
        let context = ModelContext(container)
        let work = Work(title: "W")
        context.insert(work)
        try context.save()
        work.title = "V"
        context.insert(Author(name: ""))
        #expect(throws: SaveError.self) { try context.save() }
        #expect(container.rows[work.persistentModelID!]?.values[0] == .string("V"))
    }

    @Test("Rollback discards inserts and restores changes (R32)")
    func rollback() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let work = Work(title: "W")
        context.insert(work)
        try context.save()
        work.title = "V"
        let edition = Edition()
        context.insert(edition)
        edition.work = work
        context.rollback()
        #expect(work.title == "W" && work.editions.isEmpty)
        #expect(edition.modelContext == nil && edition.persistentModelID == nil && edition.work == nil)
    }

    @Test("Unique values: pending duplicates trap, a saved match is upserted (R7)")
    func unique() throws {
        final class Tag: PersistentModel {
            @Attribute(.unique) var name: String = ""
            init(_ name: String) { self.name = name }
            required init() {}
        }
        let schema = try Schema([Tag.self])
        #expect(schema.cloudKitViolations().map(\.kind) == [.uniqueAttribute])
        let container = ModelContainer(schema: schema, configuration: ModelConfiguration(trapPolicy: .record))
        let context = ModelContext(container)
        context.insert(Tag("a"))
        try context.save()
        context.insert(Tag("a"))
        try context.save()
        #expect(container.rows.count == 1)
        context.insert(Tag("b"))
        context.insert(Tag("b"))
        try context.save()
        #expect(container.traps.map(\.code) == [.temporaryIdentifierRemap])
    }
}
