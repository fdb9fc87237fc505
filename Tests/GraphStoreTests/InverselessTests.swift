import GraphStore
import Testing

/// Field reports on relationships without an inverse and on deleted models (R20, R21, R27 against the reports).
@Suite("Relationships without an inverse, reads after a saved delete")
struct InverselessTests {
    /// `A.r` to `B` with `rule` and no inverse.
    static func container(_ rule: DeleteRule, _ behavior: StoreBehavior = StoreBehavior()) throws -> ModelContainer {
        let schema = try Schema(entities: [
            EntitySchema(name: "A", attributes: [], relationships: [RelationshipSchema("r", to: "B", toMany: true, inverse: nil, deleteRule: rule)]),
            EntitySchema(name: "B", attributes: [AttributeSchema("n", .int, default: .int(0))], relationships: []),
        ])
        return ModelContainer(schema: schema, configuration: ModelConfiguration(trapPolicy: .record, behavior: behavior))
    }

    /// An `A` holding a `B`, both saved in `context`.
    static func pair(_ container: ModelContainer, _ context: ModelContext) throws -> (a: PersistentModel, b: PersistentModel) {
        let a = container.schema.newModel("A")!, b = container.schema.newModel("B")!
        a.relate("r", to: b)
        context.insert(a)
        try context.save()
        return (a, b)
    }

    @Test("Deleting the destination of a relationship without an inverse leaves it there, dangling (R20)")
    func dangling() throws {
        let container = try Self.container(.nullify)
        let context = ModelContext(container)
        let (a, b) = try Self.pair(container, context)
        context.delete(b)
        try context.save()
        #expect(a.related("r").count == 1 && a.related("r")[0] === b)
        #expect(b.lifecycle == .detached)
    }

    @Test("A model whose deletion was saved reads back, or traps, as readAfterSavedDelete says", arguments: StoreBehavior.ReadAfterSavedDelete.allCases)
    func readAfterSavedDelete(_ reads: StoreBehavior.ReadAfterSavedDelete) throws {
        let container = try Self.container(.nullify, StoreBehavior(readAfterSavedDelete: reads))
        let context = ModelContext(container)
        let (_, b) = try Self.pair(container, context)
        context.delete(b)
        try context.save()
        _ = b.value(named: "n")
        #expect(container.traps.map(\.code) == (reads == .traps ? [.invalidatedBackingData] : []))
    }

    @Test("A deny rule without an inverse is enforced, or not, as denyWithoutInverse says", arguments: StoreBehavior.DenyWithoutInverse.allCases)
    func denyWithoutInverse(_ deny: StoreBehavior.DenyWithoutInverse) throws {
        let container = try Self.container(.deny, StoreBehavior(denyWithoutInverse: deny))
        let context = ModelContext(container)
        let (a, _) = try Self.pair(container, context)
        context.delete(a)
        let code: Int?
        do {
            try context.save()
            code = nil
        } catch {
            code = error.code
        }
        #expect(code == (deny == .enforced ? 1600 : nil))
    }
}
