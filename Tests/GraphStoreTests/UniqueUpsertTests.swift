import GraphStore
import Testing

/// R7: unique attributes are resolved against the saved rows (upsert); two inserts of one save sharing a value trap.
@Suite("Unique attributes: R7")
struct UniqueUpsertTests {
    static func container(_ replaced: StoreBehavior.ReplacedByUpsert = .detached) throws -> ModelContainer {
        let schema = try Schema(entities: [EntitySchema(name: "Tag", attributes: [AttributeSchema("name", .string, optional: true, unique: true),
                                                                                 AttributeSchema("count", .int, default: .int(0))],
                                                        relationships: [])])
        return ModelContainer(schema: schema, configuration: ModelConfiguration(trapPolicy: .record, behavior: StoreBehavior(replacedByUpsert: replaced)))
    }

    static func tag(_ container: ModelContainer, _ name: String, count: Int) -> PersistentModel {
        let tag = container.schema.newModel("Tag")!
        tag.setValue(.string(name), named: "name")
        tag.setValue(.int(count), named: "count")
        return tag
    }

    @Test("An insert whose unique value a saved row holds takes that row over; the context's model of the row leaves it",
          arguments: StoreBehavior.ReplacedByUpsert.allCases)
    func upsert(_ replaced: StoreBehavior.ReplacedByUpsert) throws {
        let container = try Self.container(replaced)
        let context = ModelContext(container)
        let first = Self.tag(container, "swift", count: 1)
        context.insert(first)
        try context.save()
        let row = try #require(first.persistentModelID)
        let second = Self.tag(container, "swift", count: 2)
        context.insert(second)
        try context.save()
        #expect(second.persistentModelID == row)
        #expect(container.rows.count == 1)
        #expect(container.rows[row]?.values == [.string("swift"), .int(2)])
        #expect(context.model(for: row) === second)
        #expect(first.modelContext == nil)
        #expect(first.lifecycle == (replaced == .detached ? .detached : .invalidated))
        #expect(container.traps.isEmpty)
    }

    @Test("A row the same save deletes is not taken over: the insert gets a row of its own")
    func deletedRowNotTaken() throws {
        let container = try Self.container()
        let context = ModelContext(container)
        let first = Self.tag(container, "swift", count: 1)
        context.insert(first)
        try context.save()
        let row = try #require(first.persistentModelID)
        context.delete(first)
        let second = Self.tag(container, "swift", count: 2)
        context.insert(second)
        try context.save()
        #expect(second.persistentModelID != row)
        #expect(container.rows.count == 1)
    }

    @Test("Two inserts of one save with one unique value trap")
    func twoInsertsTrap() throws {
        let container = try Self.container()
        let context = ModelContext(container)
        context.insert(Self.tag(container, "swift", count: 1))
        context.insert(Self.tag(container, "swift", count: 2))
        try context.save()
        #expect(container.traps.map(\.code) == [.temporaryIdentifierRemap])
        #expect(container.rows.isEmpty)
    }
}
