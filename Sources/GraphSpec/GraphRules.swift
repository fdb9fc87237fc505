import GraphFuzzEngine

/// The rules of the object-graph specification for any schema (R1–R33 of docs/evidence.md): G1–G21 for the store,
/// G22–G27 for a store kept on disk. docs/spec.md lists the same ids; the function deciding a rule names it in
/// its doc comment.
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
    public static let relaunchKeepsSaved = "G22"
    public static let permanentAcrossRelaunch = "G23"
    public static let temporaryAcrossRelaunch = "G24"
    public static let atomicSave = "G25"
    public static let refusesDamagedFile = "G26"
    public static let numbersNeverReused = "G27"
    public static let uniqueUpsert = "G28"

    public static let all: [Rule] = store + unique + launch

    /// G28, for schemas that declare a unique attribute (BooksTracker's does not).
    public static let unique: [Rule] = [
        Rule(id: uniqueUpsert, statement: "At save, an insert whose unique value a saved row holds takes that row over (its identifier, values and relationships); the context's model of the row leaves the context, detached or invalidated (parameter replacedByUpsert); two inserts of one save with one unique value, or taking one row, trap.",
             source: "R7", confidence: "M/U"),
    ]

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
        Rule(id: deleteRulesAtSave, statement: "At save, cascade deletes the destinations and nullify removes the deleted model from its partners; a relationship without an inverse keeps the deleted model (dangling); the effects stay pending if the save fails.",
             source: "R19, R20", confidence: "M"),
        Rule(id: validation, statement: "Validation runs at save over every inserted and changed model and reports every failure with Core Data's codes (1570, 1590, 1610/1620, 1660/1670), aggregated as 1560.",
             source: "R25", confidence: "D"),
        Rule(id: denyDelete, statement: "A deleted model whose .deny relationship still holds a model that is not deleted fails the save with 1600; a deny without an inverse is enforced or not (parameter denyWithoutInverse).",
             source: "R21; a delete-rule survey", confidence: "D/S"),
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
        Rule(id: savedDeleteDetaches, statement: "A model whose deletion was saved has no context and isDeleted false, keeps readable values or traps when read (parameter readAfterSavedDelete), and changing it traps.",
             source: "R18, R27; forums 776645", confidence: "M/S"),
        Rule(id: savedSnapshot, statement: "After a successful save the container holds exactly the saved state: every row with its values and relationships.",
             source: "R2, R22", confidence: "D"),
        Rule(id: attributeReadBack, statement: "An attribute reads back what was set, and reads of a valid model never trap.", source: "R25", confidence: "D"),
        Rule(id: cloudKitCheck, statement: "The CloudKit check lists every deny rule, required or inverse-less relationship, unique attribute and required attribute without default.",
             source: "R23, R24", confidence: "D"),
    ]

    public static let launch: [Rule] = [
        Rule(id: relaunchKeepsSaved, statement: "A relaunch keeps exactly the rows of the last successful save; unsaved inserts, changes and deletes are lost; no model is registered in the new container and every model of the old one is invalidated.",
             source: "R2, R22, R32", confidence: "D"),
        Rule(id: permanentAcrossRelaunch, statement: "A permanent identifier from before a relaunch resolves to the same row in the new container.",
             source: "R2, R17", confidence: "D"),
        Rule(id: temporaryAcrossRelaunch, statement: "A temporary identifier from before a relaunch never resolves, whatever temporaryIDAfterSave says.",
             source: "R2, R4, R32", confidence: "M"),
        Rule(id: atomicSave, statement: "A save is atomic: a process killed inside a save's transaction leaves the store as before the save, never between.",
             source: "Core Data's one SQLite transaction per save", confidence: "D"),
        Rule(id: refusesDamagedFile, statement: "A damaged, truncated or foreign store file is refused at open with a typed error naming the file, never a trap.",
             source: "Core Data addPersistentStore errors (11, 26, 134100)", confidence: "M"),
        Rule(id: numbersNeverReused, statement: "Permanent numbers are never reused: after a relaunch an entity's next row is numbered above every number saved before.",
             source: "Core Data's Z_PRIMARYKEY.Z_MAX", confidence: "D"),
    ]
}
