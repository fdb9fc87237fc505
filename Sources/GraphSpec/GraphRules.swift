import GraphFuzzEngine

/// The rules of the object-graph specification: G1… for the store, B1… for the BooksTracker models.
/// docs/spec/graph.md lists the same ids.
public enum GraphRules {
    public static let all: [Rule] = store + books

    public static let store: [Rule] = [
        Rule(id: "G1", statement: "A new model has no context and no identifier.", source: "R1", confidence: "D"),
        Rule(id: "G2", statement: "Insert gives a temporary identifier; the first successful save of the context replaces it with a different, permanent one.",
             source: "R2, R3", confidence: "D"),
        Rule(id: "G3", statement: "A temporary identifier held across its save resolves to the saved model or is unknown to every lookup (parameter temporaryIDAfterSave).",
             source: "R4", confidence: "U"),
        Rule(id: "G4", statement: "Inserting a model inserts every new model it is related to.", source: "R8", confidence: "D"),
        Rule(id: "G5", statement: "Inserting a model that is already registered traps (duplicate registration); inserting one registered in another context traps.",
             source: "R9", confidence: "M"),
        Rule(id: "G6", statement: "Relating models of two contexts traps; relating a new model to a registered one traps or inserts the new model (parameter newModelLink).",
             source: "R10", confidence: "M/U"),
        Rule(id: "G7", statement: "Relationships keep their inverses: setting one side updates the other, moving a to-one removes it from the old partner.",
             source: "R11", confidence: "D"),
        Rule(id: "G8", statement: "delete only marks the model (isDeleted, in deletedModelsArray); nothing cascades or nullifies before save.",
             source: "R18, R19", confidence: "M"),
        Rule(id: "G9", statement: "At save, cascade deletes the destinations and nullify removes the deleted model from its partners; the effects stay pending if the save fails.",
             source: "R19, R20", confidence: "M"),
        Rule(id: "G10", statement: "Validation runs at save over every inserted and changed model and reports every failure with Core Data's codes (1570, 1590, 1610/1620, 1660/1670), aggregated as 1560.",
             source: "R25", confidence: "D"),
        Rule(id: "G11", statement: "A deleted model whose .deny relationship still holds a model that is not deleted fails the save with 1600.",
             source: "R21", confidence: "D"),
        Rule(id: "G12", statement: "A failed save changes nothing in the container and keeps every pending insert, change and delete.",
             source: "R22", confidence: "M"),
        Rule(id: "G13", statement: "rollback discards pending inserts (no context, no identifier, no relationships), restores pending deletes and committed values.",
             source: "R32", confidence: "D"),
        Rule(id: "G14", statement: "model(for:) never returns nil: the registered model, the saved row's model, or a placeholder whose reads trap.",
             source: "R14", confidence: "D"),
        Rule(id: "G15", statement: "registeredModel(for:) returns only the context's own model; after another context's saved delete it returns the stale model or nil (parameter registeredAfterForeignDelete).",
             source: "R15", confidence: "D/U"),
        Rule(id: "G16", statement: "A fetch reads the store: saved deletions are absent, pending inserts and pending deletes of the context are present, a context's own models keep their values.",
             source: "R16, R18", confidence: "D"),
        Rule(id: "G17", statement: "A row deleted by another context's save invalidates this context's model of it: reads trap, and a save touching it traps.",
             source: "R28, R14", confidence: "M"),
        Rule(id: "G18", statement: "A model whose deletion was saved has no context and isDeleted false, keeps readable values, and changing it traps.",
             source: "R18, R27", confidence: "M"),
        Rule(id: "G19", statement: "After a successful save the container holds exactly the saved state: every row with its values and relationships.",
             source: "R2, R22", confidence: "D"),
        Rule(id: "G20", statement: "An attribute reads back what was set, and reads of a valid model never trap.", source: "R25", confidence: "D"),
        Rule(id: "G21", statement: "The CloudKit check lists every deny rule, required or inverse-less relationship, unique attribute and required attribute without default.",
             source: "R23, R24", confidence: "D"),
    ]

    public static let books: [Rule] = [
        Rule(id: "B1", statement: "The entry factories insert the entry before relating it: with an inserted work (and edition) they never trap.",
             source: "seed 004 Task 1.1–1.2", confidence: "design"),
        Rule(id: "B2", statement: "Acquiring an edition sets the entry's edition and turns a wishlist entry into toRead.",
             source: "seed 004 Task 5.3 (2)", confidence: "design"),
        Rule(id: "B3", statement: "Work.userEntry returns an owned entry (not wishlist, with an edition) first, else a wishlist entry, else nil.",
             source: "seed 004 Phase 3", confidence: "design"),
        Rule(id: "B4", statement: "An owned entry keeps its edition: deleting an edition an entry still holds fails the save (local: .deny, 1600; CloudKit: refused before save).",
             source: "seed 004 Phase 4, R21, R23", confidence: "design"),
        Rule(id: "B5", statement: "Library.save validates pending entries: a wishlist entry with an edition, or an entry without a work, is refused before the store saves.",
             source: "seed 004 Task 5.1", confidence: "design"),
        Rule(id: "B6", statement: "Deleting a work cascades to its editions and library entries.", source: "seed 004 Task 5.3 (3)", confidence: "design"),
        Rule(id: "B7", statement: "The local schema fails the CloudKit check naming the deny rule on Edition.userLibraryEntries; the CloudKit schema passes it.",
             source: "seed 004 Phase 4, R23, R24", confidence: "D"),
    ]
}
