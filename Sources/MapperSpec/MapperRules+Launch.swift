import GraphFuzzEngine

/// The mapper across an app relaunch (the store's G22–G24).
extension MapperRules {
    public static let survivesRelaunch = "M15"

    static let launch: [Rule] = [
        Rule(id: survivesRelaunch, statement: "After a relaunch the saved works are the store's and unsaved ones are gone; the work cache may survive it only through permanent identifiers (temporary ones of the earlier launch never resolve) and never returns a stale or wrong work: M9–M11 hold across it.",
             source: "G22–G24 (R2, R4, R22, R32); seed 000", confidence: "D"),
    ]
}
