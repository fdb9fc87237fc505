import BooksTracker
import GraphStore
import Testing

@Suite("List attributes")
struct ListAttributeTests {
    /// An entity with one list attribute of one to two elements.
    final class Shelf: PersistentModel {
        @Attribute(.length(1...2)) var labels: [String] = []
        init(_ labels: [String]) { self.labels = labels }
        required init() {}
    }

    @Test("A list is one value: equal element by element, order included; ordered after the other kinds")
    func equality() {
        #expect(AttributeValue.strings(["a", "b"]) == .strings(["a", "b"]))
        #expect(AttributeValue.strings(["a", "b"]) != .strings(["b", "a"]))
        #expect(AttributeValue.strings([]) != .null)
        #expect(AttributeValue.strings(["a"]) < .strings(["a", "b"]))
        #expect(AttributeValue.string("z") < .strings([]))
        #expect(AttributeValue.strings(["x", "y"]).description == "[\"x\", \"y\"]")
    }

    @Test("Validation bounds a list's element count (1660 too many, 1670 too few), aggregated as for other attributes")
    func validation() throws {
        let container = ModelContainer(schema: try Schema([Shelf.self]), configuration: ModelConfiguration(trapPolicy: .record))
        let context = ModelContext(container)
        context.insert(Shelf(["a", "b", "c"]))
        context.insert(Shelf([]))
        let error = #expect(throws: SaveError.self) { try context.save() }
        #expect(error?.issues.map(\.code).sorted() == [1660, 1670])
        #expect(container.rows.isEmpty)
        context.rollback()
        context.insert(Shelf(["a", "b"]))
        try context.save()
        #expect(container.rows.values.first?.values == [.strings(["a", "b"])])
    }

    @Test("A change that sets an equal list is no change; a different one is saved and read back")
    func changes() throws {
        let container = makeContainer(.cloudKit)
        let context = ModelContext(container)
        let work = Work(title: "Dune", subjectTags: ["Fiction"], googleBooksVolumeIDs: ["v1"])
        context.insert(work)
        try context.save()
        work.subjectTags = ["Fiction"]
        #expect(!work.hasChanges)
        work.subjectTags = ["Fiction", "Classics"]
        #expect(work.hasChanges)
        try context.save()
        let other = ModelContext(container)
        let fetched = try #require(other.fetch(.identifier(work.persistentModelID!)).first as? Work)
        #expect(fetched.subjectTags == ["Fiction", "Classics"])
        #expect(fetched.googleBooksVolumeIDs == ["v1"])
    }

    @Test("A contains fetch finds pending inserts and saved rows holding the element, with the context's own values")
    func containsFetch() throws {
        let container = makeContainer(.cloudKit)
        let context = ModelContext(container)
        let saved = Work(title: "A", googleBooksVolumeIDs: ["v1", "v2"])
        context.insert(saved)
        try context.save()
        let pending = Work(title: "B", googleBooksVolumeIDs: ["v2"])
        context.insert(pending)
        func titles(_ element: String, _ in: ModelContext) -> [String] {
            `in`.fetch(.contains(entity: "Work", attribute: "googleBooksVolumeIDs", element: element))
                .compactMap { ($0 as? Work)?.title }
        }
        #expect(titles("v2", context) == ["B", "A"])
        #expect(titles("v1", context) == ["A"])
        saved.googleBooksVolumeIDs = ["v2"]
        #expect(titles("v1", context).isEmpty)
        #expect(titles("v1", ModelContext(container)) == ["A"])
        #expect(context.fetch(.all(entity: "Work")).count == 2)
        #expect(container.traps.isEmpty)
    }
}
