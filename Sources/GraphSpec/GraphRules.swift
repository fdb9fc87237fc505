import GraphFuzzEngine

/// The rules of the object-graph specification: G1… for the store (R1–R33 of swiftdata-semantics.md), B1… for the
/// BooksTracker models (seed 004). docs/spec/graph.md lists the same ids and the function deciding each.
public enum GraphRules {
    // One constant per rule: the specification names the rule it decides with these.
    public static let newModel = "G1"
    public static let temporaryID = "G2"
    public static let heldTemporaryID = "G3"
    public static let insertGraph = "G4"
    public static let duplicateInsert = "G5"
    public static let crossContextLink = "G6"
    public static let inverses = "G7"
    public static let deleteMarks = "G8"
    public static let deleteRulesAtSave = "G9"
    public static let validation = "G10"
    public static let denyDelete = "G11"
    public static let failedSaveKeepsAll = "G12"
    public static let rollback = "G13"
    public static let modelForNeverNil = "G14"
    public static let registeredModel = "G15"
    public static let fetchReadsStore = "G16"
    public static let foreignDeleteInvalidates = "G17"
    public static let savedDeleteDetaches = "G18"
    public static let savedSnapshot = "G19"
    public static let attributeReadBack = "G20"
    public static let cloudKitCheck = "G21"
    public static let insertBeforeRelate = "B1"
    public static let acquire = "B2"
    public static let userEntry = "B3"
    public static let ownedKeepsEdition = "B4"
    public static let libraryValidates = "B5"
    public static let workCascade = "B6"
    public static let shippedSchemas = "B7"

    public static let all: [Rule] = store + books + launch

    public static let store: [Rule] = [
        Rule(id: newModel, statement: "A new model has no context and no identifier.", source: "R1", confidence: "D"),
        Rule(id: temporaryID, statement: "Insert gives a temporary identifier; the first successful save of the context replaces it with a different, permanent one.",
             source: "R2, R3", confidence: "D"),
        Rule(id: heldTemporaryID, statement: "A temporary identifier held across its save resolves to the saved model or is unknown to every lookup (parameter temporaryIDAfterSave).",
             source: "R4", confidence: "U"),
        Rule(id: insertGraph, statement: "Inserting a model inserts every new model it is related to.", source: "R8", confidence: "D"),
        Rule(id: duplicateInsert, statement: "Inserting a model that is already registered traps (duplicate registration); inserting one registered in another context traps.",
             source: "R9", confidence: "M"),
        Rule(id: crossContextLink, statement: "Relating models of two contexts traps; relating a new model to a registered one traps or inserts the new model (parameter newModelLink).",
             source: "R10", confidence: "M/U"),
        Rule(id: inverses, statement: "Relationships keep their inverses: setting one side updates the other, moving a to-one removes it from the old partner.",
             source: "R11", confidence: "D"),
        Rule(id: deleteMarks, statement: "delete only marks the model (isDeleted, in deletedModelsArray); nothing cascades or nullifies before save.",
             source: "R18, R19", confidence: "M"),
        Rule(id: deleteRulesAtSave, statement: "At save, cascade deletes the destinations and nullify removes the deleted model from its partners; the effects stay pending if the save fails.",
             source: "R19, R20", confidence: "M"),
        Rule(id: validation, statement: "Validation runs at save over every inserted and changed model and reports every failure with Core Data's codes (1570, 1590, 1610/1620, 1660/1670), aggregated as 1560.",
             source: "R25", confidence: "D"),
        Rule(id: denyDelete, statement: "A deleted model whose .deny relationship still holds a model that is not deleted fails the save with 1600.",
             source: "R21", confidence: "D"),
        Rule(id: failedSaveKeepsAll, statement: "A failed save changes nothing in the container and keeps every pending insert, change and delete.",
             source: "R22", confidence: "M"),
        Rule(id: rollback, statement: "rollback discards pending inserts (no context, no identifier, no relationships), restores pending deletes and committed values.",
             source: "R32", confidence: "D"),
        Rule(id: modelForNeverNil, statement: "model(for:) never returns nil: the registered model, the saved row's model, or a placeholder whose reads trap.",
             source: "R14", confidence: "D"),
        Rule(id: registeredModel, statement: "registeredModel(for:) returns only the context's own model; after another context's saved delete it returns the stale model or nil (parameter registeredAfterForeignDelete).",
             source: "R15", confidence: "D/U"),
        Rule(id: fetchReadsStore, statement: "A fetch reads the store: saved deletions are absent, pending inserts and pending deletes of the context are present, a context's own models keep their values.",
             source: "R16, R18", confidence: "D"),
        Rule(id: foreignDeleteInvalidates, statement: "A row deleted by another context's save invalidates this context's model of it: reads trap, and a save touching it traps.",
             source: "R28, R14", confidence: "M"),
        Rule(id: savedDeleteDetaches, statement: "A model whose deletion was saved has no context and isDeleted false, keeps readable values, and changing it traps.",
             source: "R18, R27", confidence: "M"),
        Rule(id: savedSnapshot, statement: "After a successful save the container holds exactly the saved state: every row with its values and relationships.",
             source: "R2, R22", confidence: "D"),
        Rule(id: attributeReadBack, statement: "An attribute reads back what was set, and reads of a valid model never trap.", source: "R25", confidence: "D"),
        Rule(id: cloudKitCheck, statement: "The CloudKit check lists every deny rule, required or inverse-less relationship, unique attribute and required attribute without default.",
             source: "R23, R24", confidence: "D"),
    ]

    public static let books: [Rule] = [
        Rule(id: insertBeforeRelate, statement: "The entry factories insert the entry before relating it: with an inserted work (and edition) they never trap.",
             source: "seed 004 Task 1.1–1.2", confidence: "design"),
        Rule(id: acquire, statement: "Acquiring an edition sets the entry's edition and turns a wishlist entry into toRead.",
             source: "seed 004 Task 5.3 (2)", confidence: "design"),
        Rule(id: userEntry, statement: "Work.userEntry returns an owned entry (not wishlist, with an edition) first, else a wishlist entry, else nil.",
             source: "seed 004 Phase 3", confidence: "design"),
        Rule(id: ownedKeepsEdition, statement: "An owned entry keeps its edition: deleting an edition an entry still holds fails the save (local: .deny, 1600; CloudKit: refused before save).",
             source: "seed 004 Phase 4, R21, R23", confidence: "design"),
        Rule(id: libraryValidates, statement: "Library.save validates pending entries: a wishlist entry with an edition, or an entry without a work, is refused before the store saves.",
             source: "seed 004 Task 5.1", confidence: "design"),
        Rule(id: workCascade, statement: "Deleting a work cascades to its editions and library entries.", source: "seed 004 Task 5.3 (3)", confidence: "design"),
        Rule(id: shippedSchemas, statement: "The local schema fails the CloudKit check naming the deny rule on Edition.userLibraryEntries; the CloudKit schema passes it.",
             source: "seed 004 Phase 4, R23, R24", confidence: "D"),
    ]
}
