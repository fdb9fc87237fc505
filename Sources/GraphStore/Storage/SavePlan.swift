/// The rows one save changes, before they are grouped into transactions.
struct SavePlan {
    /// Rows to remove (each with its entity).
    var deletions: [(PersistentIdentifier, Int)] = []
    /// Rows to write: identifier, entity, values and relationship targets.
    var rows: [(id: PersistentIdentifier, entity: Int, values: [AttributeValue], links: [[PersistentIdentifier]])] = []
    /// The counters to record, when they changed.
    var counters: [Int]?

    var isEmpty: Bool { deletions.isEmpty && rows.isEmpty && counters == nil }

    /// How many operations `operations(grouping)` holds, without building them.
    func operationCount(_ grouping: SaveTransactions) -> Int {
        let links = rows.reduce(0) { $0 + $1.links.count }
        let counter = counters == nil ? 0 : 1
        switch grouping {
        case .single: return 2 + deletions.count + rows.count + links + counter
        case .perRow: return 3 * deletions.count + 3 * rows.count + links + 3 * counter
        case .rowsThenRelationships: return 2 + deletions.count + rows.count + counter + (links > 0 ? 2 + links : 0)
        }
    }

    /// The write operations of this plan under `grouping`.
    func operations(_ grouping: SaveTransactions) -> [WriteOperation] {
        let deletes = deletions.map { WriteOperation.deleteRow($0.0, entity: $0.1) }
        let counter = counters.map { [WriteOperation.setCounters($0)] } ?? []
        func put(_ row: (id: PersistentIdentifier, entity: Int, values: [AttributeValue], links: [[PersistentIdentifier]])) -> WriteOperation {
            .putRow(row.id, entity: row.entity, values: row.values)
        }
        func links(_ row: (id: PersistentIdentifier, entity: Int, values: [AttributeValue], links: [[PersistentIdentifier]])) -> [WriteOperation] {
            row.links.enumerated().map { .putLinks(row.id, entity: row.entity, relationship: $0.offset, targets: $0.element) }
        }
        switch grouping {
        case .single:
            var operations: [WriteOperation] = [.begin] + deletes
            for row in rows { operations += [put(row)] + links(row) }
            return operations + counter + [.commit]
        case .perRow:
            var operations: [WriteOperation] = []
            for delete in deletes { operations += [.begin, delete, .commit] }
            for row in rows { operations += [.begin, put(row)] + links(row) + [.commit] }
            if !counter.isEmpty { operations += [.begin] + counter + [.commit] }
            return operations
        case .rowsThenRelationships:
            let first: [WriteOperation] = [.begin] + deletes + rows.map(put) + counter + [.commit]
            let second = rows.flatMap(links)
            return second.isEmpty ? first : first + [.begin] + second + [.commit]
        }
    }
}
