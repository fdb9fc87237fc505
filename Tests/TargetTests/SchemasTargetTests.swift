import GraphFuzzEngine
import GraphSpec
import GraphStore
import GraphStoreRules
@testable import GraphTarget
import Testing

@Suite("schemas target")
struct SchemasTargetTests {
    @Test("Production code passes on drawn schemas")
    func production() {
        let result = Target.schemas.search(options: SearchOptions(seed: 2, runs: 300))
        #expect(result.failure == nil, "\(String(describing: result.failure?.failure))")
        #expect(result.search.cases == 300)
    }

    /// The schemas of the first `count` cases of seed 1.
    static func drawn(_ count: Int) -> [GraphSchema] {
        let runner = MachineRunner(SchemasMachine(), maxSteps: 1)
        return (0..<count).map { runner.run(Draw(seed: SplitMix64.caseSeed(run: 1, case: $0))).config.schema }
    }

    @Test("Every drawn schema holds together for the store, and the shapes BooksTracker lacks are drawn")
    func shapes() throws {
        var seen: Set<String> = []
        for schema in Self.drawn(300) {
            _ = try Schema(schema)
            #expect((2...6).contains(schema.entities.count))
            for (e, entity) in schema.entities.enumerated() {
                if entity.relationships.isEmpty { seen.insert("entity without relationships") }
                if entity.attributes.isEmpty { seen.insert("entity without attributes") }
                if entity.attributes.contains(where: \.unique) { seen.insert("unique attribute") }
                for relationship in entity.relationships {
                    if relationship.destination == e { seen.insert("self-relationship") }
                    if relationship.inverse == nil { seen.insert("no inverse") }
                    if !relationship.optional && !relationship.toMany { seen.insert("required to-one") }
                    if relationship.deleteRule == .deny { seen.insert("deny") }
                    if let inverse = relationship.inverse, !relationship.toMany,
                       !schema.entities[relationship.destination].relationships[inverse].toMany {
                        seen.insert("to-one paired with to-one")
                    }
                    if relationship.deleteRule == .cascade,
                       schema.entities[relationship.destination].relationships.contains(where: { $0.destination == e && $0.deleteRule == .cascade }) {
                        seen.insert("cascade cycle")
                    }
                }
            }
            if !schema.cloudKitViolations.isEmpty { seen.insert("not CloudKit-compatible") } else { seen.insert("CloudKit-compatible") }
        }
        let wanted: Set<String> = ["entity without relationships", "entity without attributes", "unique attribute", "self-relationship",
                                   "no inverse", "required to-one", "deny", "to-one paired with to-one", "cascade cycle",
                                   "not CloudKit-compatible", "CloudKit-compatible"]
        #expect(wanted.subtracting(seen).isEmpty, "never drawn in 300 cases: \(wanted.subtracting(seen).sorted())")
    }
}
