import Foundation
import GraphFuzzEngine
import GraphSpec
import GraphStore
import GraphStoreRules
@testable import GraphTarget
import Testing

@Suite("schemas target")
struct SchemasTargetTests {
    @Test("Production code passes on drawn schemas")
    func production() throws {
        let result = try Campaign.firstFailure(.schemas, options: SearchOptions(seed: 2, runs: 300))
        #expect(result.failures.isEmpty, "\(String(describing: result.failures.first?.failure))")
        #expect(result.cases == 300)
    }

    @Test("A schemas case draws its schema and parameters as parameters: no configuration stands for steps")
    func configurationIsParameters() {
        // Every case starts from an empty store, whatever its schema: the shrinker's configuration passes
        // (richer starts in place of steps) have nothing to try.
        #expect(!SchemasMachine().configurationStandsForSteps)
        let draw = Draw(seed: 3)
        _ = MachineRunner(SchemasMachine(), maxSteps: 3).run(draw)
        #expect(draw.spans.contains { $0.label == .parameters && $0.count > 0 })
        #expect(!draw.spans.contains { $0.label == .config })
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

    @Test("A failed save's deny part holds its deny issues only; its other issues are the validation part's")
    func issueParts() {
        let v1 = ObjectName(row: false, ref: 0), v2 = ObjectName(row: false, ref: 1)
        let failed = GraphObservation.saveFailed(code: 1560, issues: [IssueName(code: 1590, entity: "E1", key: "r1", object: v1),
                                                                      IssueName(code: 1600, entity: "E1", key: "r1", object: v2)], SavedState(rows: []))
        let parts = Dictionary(uniqueKeysWithValues: failed.parts.map { ($0.label, $0.value) })
        #expect(parts[GraphObservation.denyLabel("E1", "r1")] == "1600 E1.r1 v2")
        #expect(parts[GraphObservation.validationLabel] == "1590 E1.r1 v1")
    }

    @Test("A failure's report declares its shrunk schema, as the shrunk configuration draws it")
    func reportDeclaresSchema() throws {
        let result = try #require(try Campaign.firstFailure(.schemas, mutant: "store-self-link-skips-inverse",
                                                            options: SearchOptions(seed: 1, runs: 2000)).failures.first)
        let record = try #require(result.counterexample)
        let schema = try MachineRunner(SchemasMachine(), maxSteps: 1).replay(config: record.config, steps: []).get().config.schema
        let lines = FailureReport(result).text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let config = try #require(lines.firstIndex { $0.hasPrefix("config(") })
        #expect(Array(lines[(config + 1)...].prefix(schema.entities.count)) == schema.declaration)
        // The fault needs a relationship of an entity to itself with an inverse: the shrunk schema keeps one.
        #expect(schema.declaration.contains { $0.contains("var r") && $0.contains("@Relationship(inverse:") })
        #expect(schema.entities.enumerated().contains { e, entity in entity.relationships.contains { $0.destination == e && $0.inverse != nil } })
    }

    @Test("A schema's declaration reads as SwiftData declares it")
    func declaration() {
        let schema = GraphSchema(name: "todo", entities: [
            SpecEntity(name: "Project", attributes: [SpecAttribute(name: "title", optional: false, defaultValue: .string(""), length: 1...3)],
                       relationships: [SpecRelationship(name: "tasks", destination: 1, toMany: true, inverse: 0, deleteRule: .cascade,
                                                        optional: true, maxCount: 2)]),
            SpecEntity(name: "Task", attributes: [SpecAttribute(name: "code", kind: .int, optional: true, defaultValue: .null, unique: true)],
                       relationships: [SpecRelationship(name: "project", destination: 0, toMany: false, inverse: 0, deleteRule: .nullify, optional: false)]),
        ])
        #expect(schema.declaration == [
            #"@Model final class Project { var title: String = "" /* count 1...3 */; @Relationship(deleteRule: .cascade, maximumModelCount: 2, inverse: \Task.project) var tasks: [Task] }"#,
            #"@Model final class Task { @Attribute(.unique) var code: Int?; @Relationship(inverse: \Project.tasks) var project: Project }"#,
        ])
    }

    /// Seeds 1–20 of each mutant are `graph-fuzz bench`'s figure (docs/performance.md); a test holds seed 1, unshrunk.
    @Test("Each schemas mutant is found at seed 1 under a rule it declares", arguments: SchemasMachine.mutants.mutants.map(\.name))
    func mutantFound(_ name: String) throws {
        let result = try Campaign.firstFailure(.schemas, mutant: name, options: SearchOptions(seed: 1, runs: 2000, shrinkBudget: ShrinkBudget(maxAttempts: 0)))
        let found = try #require(result.failures.first, "\(name) not found at seed 1")
        #expect(!found.isMisattributed, "\(name) found under \(found.failure.rule)")
    }
}
