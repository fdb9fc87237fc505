import Foundation
import GraphStore
import Testing

/// Models declared as SwiftData's: what the schema derives from the classes, where a new model keeps its values and
/// relationships until it has a schema, and the typed fetch and model actor.
@Suite("Models declared as in SwiftData")
struct DeclarationTests {
    final class Shelf: PersistentModel {
        @Attribute(.unique) var code: String = ""
        @Attribute var label: String?
        @Attribute(.range(0...9)) var rank: Int = 1
        @Attribute var opened: Date = Date.now
        @Relationship(deleteRule: .cascade, inverse: \Book.shelf) var books: [Book] = []

        init(code: String, books: [Book] = []) {
            self.code = code
            self.books = books
        }

        required init() {}
    }

    final class Book: PersistentModel {
        @Attribute var title: String
        @Attribute var status: Status = .unread
        @Relationship var shelf: Shelf?
        @Transient var views = 0

        init(title: String) { self.title = title }
        required init() {}
    }

    enum Status: String, CaseIterable, AttributeStorable { case unread, read }

    final class Loose: PersistentModel {
        @Attribute var name: String = ""
        var notes = ""
    }

    final class Crossed: PersistentModel {
        @Relationship(inverse: \Book.title) var book: Book? = nil
    }

    static func container(_ link: StoreBehavior.NewModelLink = .trap) throws -> ModelContainer {
        ModelContainer(schema: try Schema([Shelf.self]), configuration: ModelConfiguration(trapPolicy: .record, behavior: StoreBehavior(newModelLink: link)))
    }

    @Test("The schema is derived from the classes: kinds, optionality, defaults, options, delete rules, inverses on both sides, related classes")
    func derivedSchema() throws {
        let schema = try Schema([Shelf.self])
        #expect(schema.entities.map(\.name) == ["Shelf", "Book"], "Book comes in through Shelf.books")
        let shelf = schema.entities[0], book = schema.entities[1]
        #expect(shelf.attributes.map(\.name) == ["code", "label", "rank", "opened"])
        #expect(shelf.attributes.map(\.kind) == [.string, .string, .int, .string])
        #expect(shelf.attributes.map(\.isOptional) == [false, true, false, false])
        #expect(shelf.attributes[0].isUnique && shelf.attributes[2].range == 0...9 && shelf.attributes[2].defaultValue == .int(1))
        // `= Date.now` differs from model to model: the schema takes Date's placeholder, the same in every run.
        #expect(shelf.attributes[3].defaultValue == Date(timeIntervalSinceReferenceDate: 0).attributeValue)
        #expect(shelf.relationships.map(\.deleteRule) == [.cascade] && shelf.relationships[0].inverse == "shelf")
        #expect(book.relationships[0].inverse == "books", "the inverse declared on Shelf pairs Book.shelf back")
        #expect(book.attributes.map(\.name) == ["title", "status"], "@Transient is not stored")
        #expect(book.attributes[1].defaultValue == .string("unread"))
    }

    @Test("A declaration the schema cannot store is refused, naming the property")
    func refusedDeclarations() {
        #expect(Self.refusal { () throws(SchemaError) in try Schema([Loose.self]) }
                == "Loose.notes: a stored property that is neither @Attribute, @Relationship nor @Transient (GraphStore persists what they declare)")
        #expect(Self.refusal { () throws(SchemaError) in try Schema([Crossed.self]) } == "Crossed.book: its inverse is not a @Relationship of Book")
    }

    static func refusal(_ make: () throws(SchemaError) -> Schema) -> String? {
        do {
            _ = try make()
            return nil
        } catch {
            return error.description
        }
    }

    @Test("A new model keeps its values; inserted, they move to the store, and the initializer's relationships are linked (R8, R11)")
    func newModelThenInsert() throws {
        let container = try Self.container()
        let context = ModelContext(container)
        let book = Book(title: "Dune")
        let shelf = Shelf(code: "A", books: [book])
        #expect(shelf.code == "A" && shelf.rank == 1 && book.title == "Dune" && book.status == .unread && shelf.persistentModelID == nil)
        book.status = .read
        context.insert(shelf)
        #expect(container.traps.isEmpty)
        #expect(book.persistentModelID?.isTemporary == true, "R8: the related new model is inserted with it")
        #expect(book.shelf === shelf && shelf.books.map(\.title) == ["Dune"] && book.status == .read)
        try context.save()
        let row = try #require(container.rows[book.persistentModelID!])
        #expect(row.values == [.string("Dune"), .string("read")])
    }

    @Test("Two new models related by a setter keep the inverse before either is inserted (R11)")
    func newModelsRelated() {
        let shelf = Shelf(code: "B"), book = Book(title: "Emma")
        book.shelf = shelf
        #expect(shelf.books.map(\.title) == ["Emma"])
        shelf.books = []
        #expect(book.shelf == nil)
    }

    @Test("A new model its initializer relates to a registered one traps at insert, or is inserted by the link and then traps (R10, R9)",
          arguments: StoreBehavior.NewModelLink.allCases)
    func relatedBeforeInsert(_ link: StoreBehavior.NewModelLink) throws {
        let container = try Self.container(link)
        let context = ModelContext(container)
        let book = Book(title: "Dune")
        context.insert(book)
        context.insert(Shelf(code: "C", books: [book]))
        #expect(container.traps.map(\.code) == (link == .trap ? [.crossContextRelationship] : [.duplicateRegistration]))
    }

    @Test("A typed fetch: the predicate a closure, sorted; only the rows fetched become the context's models (R16)")
    func typedFetch() throws {
        let container = try Self.container()
        let writer = ModelContext(container)
        for title in ["b", "a", "c"] { writer.insert(Book(title: title)) }
        try writer.save()
        let reader = ModelContext(container)
        let found = try reader.fetch(FetchDescriptor<Book>(predicate: { $0.title != "c" }, sortBy: [SortDescriptor(\.title)]))
        #expect(found.map(\.title) == ["a", "b"])
        let unfetched = try #require(container.rows.first { $0.value.values.first == .string("c") }?.key)
        #expect(reader.registeredModel(for: unfetched) == nil)
        #expect(try reader.fetchCount(FetchDescriptor<Book>()) == 3)
        var limited = FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title, order: .reverse)])
        limited.fetchLimit = 1
        #expect(try reader.fetch(limited).map(\.title) == ["c"])
    }

    actor Librarian: ModelActor {
        let modelContext: ModelContext
        init(modelContainer: ModelContainer) { modelContext = ModelContext(modelContainer) }
        func title(of id: PersistentIdentifier) -> String? { self[id, as: Book.self]?.title }
    }

    @Test("A model actor finds its own model of an identifier (SwiftData's self[id, as:])")
    func modelActor() async throws {
        let container = try Self.container()
        let context = ModelContext(container)
        let book = Book(title: "Dune")
        context.insert(book)
        try context.save()
        let id = try #require(book.persistentModelID)
        #expect(await Librarian(modelContainer: container).title(of: id) == "Dune")
    }
}
