import BooksTracker
import FaultPoints
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// A faulty variant of the store and the models: its name, rules and summary, and the faults it selects.
/// Registering one is one `GraphMutant(…)` line in `table`.
public struct GraphMutant: Sendable, Hashable {
    /// The mutant as the engine lists it.
    public let mutant: Mutant
    /// The store's faults it selects.
    package var store: Faults<StoreBehavior> = .shipped
    /// The library's faults it selects.
    package var library: Faults<LibraryPolicy> = .shipped
    /// How the store groups a save's writes into transactions (production: one).
    package var saveTransactions: SaveTransactions = .single
    /// The local schema's delete rule on Edition.userLibraryEntries (production: `.deny`).
    package var editionEntriesRule: DeleteRule = .deny

    /// The registered mutant named `rawValue`, if any.
    public init?(rawValue: String) {
        guard let registered = Self.table.first(where: { $0.mutant.name == rawValue }) else { return nil }
        self = registered
    }

    init(_ mutant: Mutant, store: Faults<StoreBehavior> = .shipped, library: Faults<LibraryPolicy> = .shipped,
         saveTransactions: SaveTransactions = .single, editionEntriesRule: DeleteRule = .deny) {
        self.mutant = mutant
        self.store = store
        self.library = library
        self.saveTransactions = saveTransactions
        self.editionEntriesRule = editionEntriesRule
    }

    /// The mutant's name.
    public var rawValue: String { mutant.name }

    /// Every registered mutant, one line each.
    package static let table: [GraphMutant] = [
        GraphMutant(Mutant(name: "relate-before-insert", rule: "B1",
               summary: "Seed 004 before its fix: the entry factories relate the entry before inserting it (LibraryPolicy fault relateBeforeInsert)."),
                    library: [.relateBeforeInsert]),
        GraphMutant(Mutant(name: "edition-nullify", rule: "B4",
               summary: "Seed 004's current .nullify on Edition.userLibraryEntries in the local schema: an owned entry loses its edition."),
                    editionEntriesRule: .nullify),
        GraphMutant(Mutant(name: "user-entry-first", rule: "B3",
               summary: "Seed 004's Work.userEntry before Phase 3: the first entry, wishlist or not (LibraryPolicy fault firstUserEntry)."),
                    library: [.firstUserEntry]),
        GraphMutant(Mutant(name: "skip-validate", rule: "B5",
               summary: "Saving without validate(): a wishlist entry with an edition is persisted (LibraryPolicy fault skipValidation)."),
                    library: [.skipValidation]),
        GraphMutant(Mutant(name: "store-permanent-on-insert", rule: "G2",
               summary: "The store gives permanent identifiers at insert (StoreBehavior fault permanentIdentifiersAtInsert)."),
                    store: [.permanentIdentifiersAtInsert]),
        GraphMutant(Mutant(name: "store-eager-delete-rules", rules: ["G8", "G9"],
               summary: "The store runs cascade and nullify inside delete() (StoreBehavior fault deleteRulesAtDelete).",
               reason: "the fault moves the delete rules from save into delete(): something cascades before save (G8), and the save's cascade misses what was linked to the deleted model since (G9)"),
                    store: [.deleteRulesAtDelete]),
        GraphMutant(Mutant(name: "store-failed-save-partial", rule: "G12",
               summary: "A failed save still writes the changed rows, and removes the deleted rows, of saved models (StoreBehavior fault partialFailedSave)."),
                    store: [.partialFailedSave]),
        GraphMutant(Mutant(name: "store-no-inverse", rule: "G7",
               summary: "The store does not maintain inverses of registered models (StoreBehavior fault noInverseMaintenance)."),
                    store: [.noInverseMaintenance]),
        GraphMutant(Mutant(name: "store-save-per-row", rule: "G25",
               summary: "A save written as several transactions, one per row: a killed save leaves part of the graph (SaveTransactions.perRow)."),
                    saveTransactions: .perRow),
        GraphMutant(Mutant(name: "store-rows-then-relationships", rule: "G25",
               summary: "Rows committed before their relationships: a killed save leaves rows without relationships (SaveTransactions.rowsThenRelationships)."),
                    saveTransactions: .rowsThenRelationships),
    ]

    /// The mutants as the engine lists them, with the rules each breaks.
    public static var all: [Mutant] { table.map(\.mutant) }

    /// No fault, made once per process (`Faults.shipped` builds a new value at every case, through FaultPoints'
    /// generic initialiser).
    private static let shippedStore: Faults<StoreBehavior> = .shipped
    private static let shippedLibrary: Faults<LibraryPolicy> = .shipped

    /// The store behaviour for `config`, with this mutant's store faults.
    static func behavior(_ config: GraphConfig, _ mutant: GraphMutant?) -> StoreBehavior {
        StoreBehavior(newModelLink: config.newModelLink == .trap ? .trap : .autoInsert,
                      temporaryIDAfterSave: config.temporaryIDAfterSave == .resolves ? .resolves : .unknown,
                      registeredAfterForeignDelete: config.registeredAfterForeignDelete == .stale ? .stale : .none,
                      faults: mutant?.store ?? shippedStore)
    }

    /// The library policy for `config`, with this mutant's library faults.
    static func policy(_ config: GraphConfig, _ mutant: GraphMutant?) -> LibraryPolicy {
        LibraryPolicy(configuration: config.schema == .local ? .local : .cloudKit, faults: mutant?.library ?? shippedLibrary)
    }

    /// How the store groups a save's writes into transactions: one (production), or this mutant's grouping.
    static func saveTransactions(_ mutant: GraphMutant?) -> SaveTransactions { mutant?.saveTransactions ?? .single }

    /// The local schema's delete rule on Edition.userLibraryEntries.
    static func editionEntriesRule(_ mutant: GraphMutant?) -> DeleteRule { mutant?.editionEntriesRule ?? .deny }
}
