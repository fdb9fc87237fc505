/// G28 (R7): unique attributes, decided at save: conflicts with the saved rows are upserts, conflicts among the
/// save's own inserts trap.
extension GraphModel {
    /// G28 (R7): two pending inserts of context `c` (not deleted) sharing a unique value other than nil trap.
    func sharedUniqueTrap(_ c: Int) -> SpecTrap? {
        for (e, pools) in schema.uniquePools.enumerated() {
            let inserts = objects(in: c) { $0.inserted && !$0.deleted && $0.entity == e }
            for pool in pools {
                let values = inserts.map { objects[$0].values[pool.attribute] }.filter { $0 != .null }
                if Set(values).count != values.count { return SpecTrap(.temporaryIdentifierRemap, GraphRules.uniqueUpsert) }
            }
        }
        return nil
    }

    /// G28 (R7): the saved row each pending insert of context `c` takes over, by object: for the first unique
    /// attribute (in the entity's order) whose value a saved row of the entity holds, the lowest-numbered such row,
    /// unless the save deletes it.
    func upsertTargets(_ c: Int) -> [Int: Int] {
        let deletedRows = objects(in: c) { $0.deleted }.compactMap { objects[$0].id }.filter(\.permanent).map(\.number)
        var targets: [Int: Int] = [:]
        for o in objects(in: c, where: { $0.inserted && !$0.deleted }) {
            for pool in schema.uniquePools[objects[o].entity] where objects[o].values[pool.attribute] != .null {
                let value = objects[o].values[pool.attribute]
                if let number = rows.indices.first(where: { rows[$0]?.entity == objects[o].entity && rows[$0]?.values[pool.attribute] == value
                                                            && !deletedRows.contains($0) }) {
                    targets[o] = number
                    break
                }
            }
        }
        return targets
    }
}
