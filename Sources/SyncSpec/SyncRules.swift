import GraphFuzzEngine

/// The rules of the sync specification (docs/spec/sync.md lists the same ids).
public enum SyncRules {
    // Rule ids, named for what each rule protects.
    public static let dualWriteAgreement = "S1"
    public static let migrationKeepsItems = "S2"
    public static let rollbackLosesNothing = "S3"
    public static let concurrentAdditionsSurvive = "S4"
    public static let deletionWins = "S5"
    public static let lastWriterWins = "S6"
    public static let orphanWaits = "S7"
    public static let blobLosesUpdate = "S8"
    public static let localEditsPersist = "S9"

    public static let all: [Rule] = [
        Rule(id: dualWriteAgreement,
             statement: "During dual-write (phases 1 and 2) the blob view and the entity view of every array agree after every operation, on every device.",
             source: "seed 001 Migration Strategy, Phase 1.3 and Phase 2.2", confidence: "design"),
        Rule(id: migrationKeepsItems,
             statement: "Each phase change loses no item: phase 1 populates one entity row per blob entry (the entry's identity is the record name) and keeps the user's order where the model has order; switching reads (phase 2) and removing the attributes (phase 3) show the same items in the same order.",
             source: "seed 001 Migration Strategy, Phase 1.2, Phase 3", confidence: "design"),
        Rule(id: rollbackLosesNothing,
             statement: "Rolling reads back from phase 2 to phase 1 loses nothing: the blobs show exactly what the entities showed, including edits and syncs made in phase 2.",
             source: "seed 001 Phase 2 (safe rollback point)", confidence: "design"),
        Rule(id: concurrentAdditionsSurvive,
             statement: "With relationship entities, independent concurrent edits of different items of one array on two devices (additions, quantity changes, moves) all survive a sync: each item is its own record, so one device's unpushed edits never hide another device's changes to other items. Order merges by placement: an item placed (added or moved) on a device stays after the items that device held before that place and before those after it, for as long as neither item is placed again; items placed concurrently on two devices may read in either order.",
             source: "R31; seed 001 'CloudKit Sync Issues' point 1", confidence: "D/M"),
        Rule(id: deletionWins,
             statement: "A deletion wins over a concurrent edit of the same item: the server refuses a save of a record it holds as deleted, the refused device drops the item, and a fetched deletion removes the item even where it has unpushed edits.",
             source: "R30 (CloudKit deleted-record semantics); seed 001", confidence: "M"),
        Rule(id: lastWriterWins,
             statement: "Concurrent saves of one record resolve last writer wins: the last push replaces the whole record (granularity record) or the fields it changed (granularity field, fuzzed both ways); a fetch never overwrites unpushed local changes, which win at their push.",
             source: "R30", confidence: "D/U"),
        Rule(id: orphanWaits,
             statement: "Relationship records arrive out of order and partially: an entity row whose project has not arrived is kept (persisted) and appears when its project arrives; it is never dropped.",
             source: "R31, R24 (relationships optional)", confidence: "D/M"),
        Rule(id: blobLosesUpdate,
             statement: "With transformable blobs (phase 0) the array travels as one field: the last push replaces it whole, so of two concurrent edits of the same array one is lost. The specification predicts the loss.",
             source: "R31; seed 001 'CloudKit Sync Issues' points 1–3", confidence: "D/M"),
        Rule(id: localEditsPersist,
             statement: "An edit is visible at once on the device that made it, in the read order of its phase (ordered arrays in the user's order: an addition after every item, a move to index i after the items before i and before the others; unordered arrays by identity), and an app restart changes nothing the app reads.",
             source: "seed 001 models", confidence: "design"),
    ]
}
