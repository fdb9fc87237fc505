import GlassSync
import GraphFuzzEngine
import SyncSpec

extension Target {
    /// The `sync` target: transformable arrays versus relationship entities under a three-phase
    /// migration and CloudKit-style sync (seed 001).
    public static var sync: Target {
        Target(
            name: "sync",
            summary: "Glass-project arrays as blobs vs relationship entities: dual-write, migration phases with rollback, and CloudKit-style sync between two devices (out-of-order, partial fetches; last writer wins).",
            rules: SyncRules.all,
            mutants: SyncMachine.mutants,
            defaultSteps: 50,
            generatorVersion: "3"
        ) { SyncMachine(strategy: $0) }
    }
}

extension SyncMachine {
    /// The mutants of the sync target: each selects faults of GlassSync.
    package static let mutants = MutantTable(shipped: SyncStrategy.production, [
        Mutant(name: "blob-storage", rules: [SyncRules.concurrentAdditionsSurvive, SyncRules.deletionWins],
               summary: "The seed's current design: arrays stay transformable blobs in every phase, so two devices' concurrent additions to one array lose one of them.",
               reason: "the array travels as one field, so a device's unpushed array wins over whatever another device pushed: an addition or edit of another item is lost (S4), and so is a deletion of an item the device edited concurrently, which must win (S5)"):
            [.blobsOnlyStorage],
        Mutant(name: "dual-write-misses-entities", rule: SyncRules.dualWriteAgreement,
               summary: "During dual-write the quantity edit path writes the blob only; the entity row keeps the old quantity."):
            [.quantityWritesBlobOnly],
        Mutant(name: "migration-loses-order", rule: SyncRules.migrationKeepsItems,
               summary: "The phase-1 migration passes each array through a set sorted by catalogue code, numbering positions in code order instead of the user's order."):
            [.migrationSortsByCode],
        Mutant(name: "link-before-parent", rule: SyncRules.orphanWaits,
               summary: "A fetched entity row whose project has not arrived yet is dropped instead of waiting for its parent."):
            [.dropOrphans],
        Mutant(name: "midpoint-positions", rules: [SyncRules.concurrentAdditionsSurvive, SyncRules.deletionWins],
               summary: "Seed 001's placement: an append goes a fixed step after the last item and a move to the exact midpoint of its neighbours, so concurrent appends tie and a move between them renumbers the array, pushing rows the user never edited.",
               reason: "the renumbering makes records of items the user never moved the device's own unpushed changes: at a fetch they hide another device's concurrent edit of those items, and at a push they replace it (record-level last writer wins), so an independent edit of another item is lost (S4); a renumbering can leave the moved item at the position it had, so the move saves nothing and, where another device deleted that item, the push never meets the deletion and the item stays (S5)"):
            [.midpointPositions],
    ])
}
