import GraphFuzzEngine

/// The on-disk rules G22–G27 (issue 17): a relaunch, identifiers across it, a killed save, a damaged file, the
/// numbers of rows saved after a relaunch. docs/spec/graph.md gives their evidence.
extension GraphRules {
    public static let relaunchKeepsSaved = "G22"
    public static let permanentAcrossRelaunch = "G23"
    public static let temporaryAcrossRelaunch = "G24"
    public static let atomicSave = "G25"
    public static let refusesDamagedFile = "G26"
    public static let numbersNeverReused = "G27"

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
