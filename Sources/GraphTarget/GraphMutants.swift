import BooksTracker
import FaultPoints
import GraphFuzzEngine
import BooksSpec
import GraphSpec
import GraphStore

/// What a graph mutant selects in the store and the models: the store's and the library's faults, how the store
/// groups a save's writes into transactions, and the local schema's delete rule on Edition.userLibraryEntries.
public struct GraphFaults: Sendable, Hashable {
    /// The store's faults.
    package var store: Faults<StoreBehavior> = .shipped
    /// The library's faults.
    package var library: Faults<LibraryPolicy> = .shipped
    /// How the store groups a save's writes into transactions (production: one).
    package var saveTransactions: SaveTransactions = .single
    /// The local schema's delete rule on Edition.userLibraryEntries (production: `.deny`).
    package var editionEntriesRule: DeleteRule = .deny

    package init(store: Faults<StoreBehavior> = .shipped, library: Faults<LibraryPolicy> = .shipped,
                 saveTransactions: SaveTransactions = .single, editionEntriesRule: DeleteRule = .deny) {
        self.store = store
        self.library = library
        self.saveTransactions = saveTransactions
        self.editionEntriesRule = editionEntriesRule
    }

    /// Production: no fault. Made once per process (`Faults.shipped` builds a new value at every case, through
    /// FaultPoints' generic initialiser).
    package static let shipped = GraphFaults()

    /// The store behaviour for `config`, with these store faults.
    func behavior(_ config: GraphConfig) -> StoreBehavior {
        let shipped = config.parameters.behavior
        return StoreBehavior(newModelLink: shipped.newModelLink, temporaryIDAfterSave: shipped.temporaryIDAfterSave,
                             registeredAfterForeignDelete: shipped.registeredAfterForeignDelete, faults: store)
    }

    /// The library policy for `config`, with these library faults.
    func policy(_ config: GraphConfig) -> LibraryPolicy {
        LibraryPolicy(configuration: config.schema == .local ? .local : .cloudKit, faults: library)
    }
}

extension GraphMachine {
    /// The graph target's mutants, one entry each: the mutant and what it selects.
    package static let mutants = MutantTable(shipped: GraphFaults.shipped, [
        Mutant(name: "relate-before-insert", rule: "B1",
               summary: "Seed 004 before its fix: the entry factories relate the entry before inserting it (LibraryPolicy fault relateBeforeInsert)."):
         GraphFaults(library: [.relateBeforeInsert]),
        Mutant(name: "edition-nullify", rule: "B4",
               summary: "Seed 004's current .nullify on Edition.userLibraryEntries in the local schema: an owned entry loses its edition."):
         GraphFaults(editionEntriesRule: .nullify),
        Mutant(name: "user-entry-first", rule: "B3",
               summary: "Seed 004's Work.userEntry before Phase 3: the first entry, wishlist or not (LibraryPolicy fault firstUserEntry)."):
         GraphFaults(library: [.firstUserEntry]),
        Mutant(name: "skip-validate", rule: "B5",
               summary: "Saving without validate(): a wishlist entry with an edition is persisted (LibraryPolicy fault skipValidation)."):
         GraphFaults(library: [.skipValidation]),
        Mutant(name: "store-permanent-on-insert", rule: "G2",
               summary: "The store gives permanent identifiers at insert (StoreBehavior fault permanentIdentifiersAtInsert)."):
         GraphFaults(store: [.permanentIdentifiersAtInsert]),
        Mutant(name: "store-eager-delete-rules", rules: ["G8", "G9", "G7"],
               summary: "The store runs cascade and nullify inside delete() (StoreBehavior fault deleteRulesAtDelete).",
               reason: "the fault moves the delete rules from save into delete(): something cascades before save (G8), and the save's cascade misses what was linked to the deleted model since (G9), leaving a link whose inverse is gone, which the next relate or unrelate of that pair counts (G7)"):
         GraphFaults(store: [.deleteRulesAtDelete]),
        Mutant(name: "store-failed-save-partial", rule: "G12",
               summary: "A failed save still writes the changed rows, and removes the deleted rows, of saved models (StoreBehavior fault partialFailedSave)."):
         GraphFaults(store: [.partialFailedSave]),
        Mutant(name: "store-no-inverse", rule: "G7",
               summary: "The store does not maintain inverses of registered models (StoreBehavior fault noInverseMaintenance)."):
         GraphFaults(store: [.noInverseMaintenance]),
        Mutant(name: "store-save-per-row", rule: "G25",
               summary: "A save written as several transactions, one per row: a killed save leaves part of the graph (SaveTransactions.perRow)."):
         GraphFaults(saveTransactions: .perRow),
        Mutant(name: "store-rows-then-relationships", rule: "G25",
               summary: "Rows committed before their relationships: a killed save leaves rows without relationships (SaveTransactions.rowsThenRelationships)."):
         GraphFaults(saveTransactions: .rowsThenRelationships),
        Mutant(name: "background-stale-model", rules: ["B8", "G19", "B9"],
               summary: "The background actor fetches the work before it awaits and changes that model afterwards: a delete saved meanwhile leaves it without its row (LibraryPolicy fault backgroundStaleModel).",
               reason: "the model it holds also keeps the title it was fetched with: giving it that title again is no change, so its save leaves the title the main context saved meanwhile (G19); a change its failed save leaves in the actor's context shows when a later refresh is cancelled and observes the context's unsaved changes (B9)"):
         GraphFaults(library: [.backgroundStaleModel]),
        Mutant(name: "cancelled-refresh-leaves-change", rules: ["B9", "G16", "G19", "G10"],
               summary: "The background refresh checks for cancellation after it set the title, before it saves: cancelled during its await, it leaves the title unsaved in the actor's context (LibraryPolicy fault cancelledRefreshLeavesChange).",
               reason: "a cancelled refresh stops with a change of its own in its context (B9); when the context already held unsaved changes the cancelled call cannot tell, and the title shows where a later step reads context 1: a fetch by title (G16), the rows its next save writes (G19), or the issues of that save when the title it left is not a valid one (G10)"):
         GraphFaults(library: [.cancelledRefreshLeavesChange]),
    ])
}
