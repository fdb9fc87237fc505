import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The faulty variants of the store and the models, each selected through a production strategy point.
public enum GraphMutant: String, Sendable, CaseIterable {
    case relateBeforeInsert = "relate-before-insert"
    case editionNullify = "edition-nullify"
    case userEntryFirst = "user-entry-first"
    case skipValidate = "skip-validate"
    case storePermanentOnInsert = "store-permanent-on-insert"
    case storeEagerDeleteRules = "store-eager-delete-rules"
    case storeFailedSavePartial = "store-failed-save-partial"
    case storeNoInverse = "store-no-inverse"
    case storeSavePerRow = "store-save-per-row"
    case storeRowsThenRelationships = "store-rows-then-relationships"

    /// The mutants as the engine lists them, with the rule each breaks.
    public static let all: [Mutant] = [
        Mutant(name: relateBeforeInsert.rawValue, rule: "B1",
               summary: "Seed 004 before its fix: the entry factories relate the entry before inserting it (LibraryPolicy.entryCreation = .relateBeforeInsert)."),
        Mutant(name: editionNullify.rawValue, rule: "B4",
               summary: "Seed 004's current .nullify on Edition.userLibraryEntries in the local schema: an owned entry loses its edition."),
        Mutant(name: userEntryFirst.rawValue, rule: "B3",
               summary: "Seed 004's Work.userEntry before Phase 3: the first entry, wishlist or not (LibraryPolicy.userEntrySelection = .first)."),
        Mutant(name: skipValidate.rawValue, rule: "B5",
               summary: "Saving without validate(): a wishlist entry with an edition is persisted (LibraryPolicy.saveValidation = .skip)."),
        Mutant(name: storePermanentOnInsert.rawValue, rule: "G2",
               summary: "The store gives permanent identifiers at insert (StoreBehavior.identifierTiming = .atInsert)."),
        Mutant(name: storeEagerDeleteRules.rawValue, rules: ["G8", "G9"],
               summary: "The store runs cascade and nullify inside delete() (StoreBehavior.deleteRuleTiming = .atDelete).",
               reason: "the fault moves the delete rules from save into delete(): something cascades before save (G8), and the save's cascade misses what was linked to the deleted model since (G9)"),
        Mutant(name: storeFailedSavePartial.rawValue, rule: "G12",
               summary: "A failed save still writes the changed rows, and removes the deleted rows, of saved models (StoreBehavior.failedSave = .partial)."),
        Mutant(name: storeNoInverse.rawValue, rule: "G7",
               summary: "The store does not maintain inverses of registered models (StoreBehavior.inverseMaintenance = .none)."),
        Mutant(name: storeSavePerRow.rawValue, rule: "G25",
               summary: "A save written as several transactions, one per row: a killed save leaves part of the graph (SaveTransactions.perRow)."),
        Mutant(name: storeRowsThenRelationships.rawValue, rule: "G25",
               summary: "Rows committed before their relationships: a killed save leaves rows without relationships (SaveTransactions.rowsThenRelationships)."),
    ]

    /// The store behaviour for `config`, with this mutant's strategy if it is a store mutant.
    static func behavior(_ config: GraphConfig, _ mutant: GraphMutant?) -> StoreBehavior {
        var behavior = StoreBehavior(
            newModelLink: config.newModelLink == .trap ? .trap : .autoInsert,
            temporaryIDAfterSave: config.temporaryIDAfterSave == .resolves ? .resolves : .unknown,
            registeredAfterForeignDelete: config.registeredAfterForeignDelete == .stale ? .stale : .none)
        switch mutant {
        case .storePermanentOnInsert: behavior.identifierTiming = .atInsert
        case .storeEagerDeleteRules: behavior.deleteRuleTiming = .atDelete
        case .storeFailedSavePartial: behavior.failedSave = .partial
        case .storeNoInverse: behavior.inverseMaintenance = .none
        default: break
        }
        return behavior
    }

    /// The library policy for `config`, with this mutant's strategy if it is a domain mutant.
    static func policy(_ config: GraphConfig, _ mutant: GraphMutant?) -> LibraryPolicy {
        var policy = LibraryPolicy(configuration: config.schema == .local ? .local : .cloudKit)
        switch mutant {
        case .relateBeforeInsert: policy.entryCreation = .relateBeforeInsert
        case .userEntryFirst: policy.userEntrySelection = .first
        case .skipValidate: policy.saveValidation = .skip
        default: break
        }
        return policy
    }

    /// How the store groups a save's writes into transactions: one (production), or this mutant's grouping.
    static func saveTransactions(_ mutant: GraphMutant?) -> SaveTransactions {
        switch mutant {
        case .storeSavePerRow: return .perRow
        case .storeRowsThenRelationships: return .rowsThenRelationships
        default: return .single
        }
    }

    /// The local schema's delete rule on Edition.userLibraryEntries.
    static func editionEntriesRule(_ mutant: GraphMutant?) -> DeleteRule { mutant == .editionNullify ? .nullify : .deny }
}
