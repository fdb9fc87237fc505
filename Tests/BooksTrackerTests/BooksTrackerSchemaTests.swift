import BooksTracker
import GraphStore
import Testing

@Suite("BooksTrackerSchema: each configuration's schema, the local one with any delete rule on an edition's entries")
struct BooksTrackerSchemaTests {
    /// The delete rule of `Edition.userLibraryEntries` and whether `UserLibraryEntry.work` is optional, in `schema`.
    private func shape(_ schema: Schema) throws -> (rule: DeleteRule, workOptional: Bool) {
        let edition = try #require(schema.entities.first { $0.name == "Edition" })
        let entry = try #require(schema.entities.first { $0.name == "UserLibraryEntry" })
        let entries = try #require(edition.relationshipIndex(named: "userLibraryEntries").map { edition.relationships[$0] })
        let work = try #require(entry.relationshipIndex(named: "work").map { entry.relationships[$0] })
        return (entries.deleteRule, work.isOptional)
    }

    @Test("the local schema has the rule asked for and a required entry work, the same value every time; CloudKit's ignores the rule")
    func everyRule() throws {
        let cloudKit = BooksTrackerSchema.schema(.cloudKit)
        for rule in DeleteRule.allCases {
            let local = BooksTrackerSchema.schema(.local, localEditionEntriesRule: rule)
            let (entriesRule, workOptional) = try shape(local)
            #expect(entriesRule == rule && !workOptional, "\(rule)")
            #expect(local == BooksTrackerSchema.schema(.local, localEditionEntriesRule: rule))
            #expect(BooksTrackerSchema.schema(.cloudKit, localEditionEntriesRule: rule) == cloudKit)
        }
        #expect(BooksTrackerSchema.schema(.local) == BooksTrackerSchema.schema(.local, localEditionEntriesRule: .deny))
        #expect(try shape(cloudKit).workOptional, "CloudKit: every relationship optional")
    }
}
