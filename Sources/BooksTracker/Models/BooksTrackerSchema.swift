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
        switch (configuration, localEditionEntriesRule) {
        case (.cloudKit, _): return cloudKitSchema
        case (.local, .deny): return localSchema
        case (.local, _): return makeSchema(.local, localEditionEntriesRule: localEditionEntriesRule)
        }
    }

    /// The shipped schemas, resolved once (a schema is an immutable value).
    private static let cloudKitSchema = makeSchema(.cloudKit, localEditionEntriesRule: .deny)
    private static let localSchema = makeSchema(.local, localEditionEntriesRule: .deny)

    private static func makeSchema(_ configuration: BooksConfiguration, localEditionEntriesRule: DeleteRule) -> Schema {
        var variants: [EntitySchema] = []
        if configuration == .local {
            variants = [
                Edition.declaration.with(deleteRule: localEditionEntriesRule, for: "userLibraryEntries"),
                UserLibraryEntry.declaration.with(optional: false, for: "work"),
            ]
        }
        do {
            return try Schema(models, variants: variants)
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
