import GraphStore

/// The two schema configurations of seed 004's models.
public enum BooksConfiguration: String, Sendable, CaseIterable {
    /// Local store: `.deny` on `Edition.userLibraryEntries` (seed 004, Phase 4) and a required `UserLibraryEntry.work`.
    case local
    /// CloudKit-mirrored store (R23, R24): no deny, every relationship optional; "an owned entry keeps its
    /// edition" is enforced by `Library.save()` before the store saves.
    case cloudKit
}

/// Builds the BooksTracker schema for a configuration.
public enum BooksTrackerSchema {
    /// The model classes, in schema order.
    public static let models: [PersistentModel.Type] = [Work.self, Edition.self, Author.self, UserLibraryEntry.self]

    /// The schema of `configuration`. `localEditionEntriesRule` is the local configuration's delete rule on
    /// `Edition.userLibraryEntries` (`.deny`, seed 004's fix; mutant `edition-nullify` selects `.nullify`).
    public static func schema(_ configuration: BooksConfiguration, localEditionEntriesRule: DeleteRule = .deny) -> Schema {
        switch configuration {
        case .cloudKit: return cloudKitSchema
        case .local: return localSchemas[localEditionEntriesRule]!  // every rule is a key
        }
    }

    /// The schemas, derived once from the model classes (a schema is an immutable value): the local one for every
    /// delete rule, so a store opened with another rule (a mutant's) costs what a shipped one does.
    private static let cloudKitSchema = derive()
    private static let localSchemas = Dictionary(uniqueKeysWithValues: DeleteRule.allCases.map { rule in
        (rule, makeSchema(.local, localEditionEntriesRule: rule))
    })

    private static func derive() -> Schema {
        do {
            return try Schema(models)
        } catch {
            preconditionFailure("the BooksTracker models do not make a schema: \(error)")
        }
    }

    /// The classes' schema (the CloudKit configuration's), or for the local configuration that schema with
    /// `localEditionEntriesRule` on `Edition.userLibraryEntries` and a required `UserLibraryEntry.work`.
    private static func makeSchema(_ configuration: BooksConfiguration, localEditionEntriesRule: DeleteRule) -> Schema {
        guard configuration == .local else { return cloudKitSchema }
        do {
            return try cloudKitSchema.changing("userLibraryEntries", of: "Edition") { $0.deleteRule = localEditionEntriesRule }
                .changing("work", of: "UserLibraryEntry") { $0.isOptional = false }
        } catch {
            preconditionFailure("the BooksTracker schema does not hold together: \(error)")
        }
    }

    /// A container for `configuration` (in memory, as every container here is).
    public static func container(_ configuration: BooksConfiguration, store: ModelConfiguration = ModelConfiguration(),
                                 localEditionEntriesRule: DeleteRule = .deny) -> ModelContainer {
        ModelContainer(schema: schema(configuration, localEditionEntriesRule: localEditionEntriesRule), configuration: store)
    }
}
