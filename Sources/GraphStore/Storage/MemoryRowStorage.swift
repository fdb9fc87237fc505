/// The in-memory backend: rows in a dictionary, each entity's identifiers in ascending number. A
/// transaction's operations are buffered and applied at commit, so an abandoned transaction leaves nothing.
///
/// The object outlives the containers opened on it: `ModelContainer.relaunch()` opens a new container on
/// the same rows, as an app relaunched on the same file.
final class MemoryRowStorage: RowStorage {
    let storeIdentifier: String
    let schema: Schema
    private(set) var launch = 1
    private(set) var counters: [Int]
    private(set) var rows: [PersistentIdentifier: Row] = [:]
    /// The identifiers of each entity's rows (by schema index), in ascending number.
    private(set) var ids: [[PersistentIdentifier]]
    /// Operations of the open transaction; nil outside a transaction.
    private var pending: [WriteOperation]?
    private(set) var isOpen = true

    init(schema: Schema, storeIdentifier: String) {
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.counters = Array(repeating: 0, count: schema.entities.count)
        self.ids = Array(repeating: [], count: schema.entities.count)
    }

    var location: String { ":memory-rows:" }

    /// Opens the same rows again (a relaunch): the next launch, no open transaction.
    func reopen() {
        pending = nil
        isOpen = true
        launch += 1
    }

    func row(_ id: PersistentIdentifier) -> Row? { rows[id] }
    func rowIDs(_ entity: Int) -> [PersistentIdentifier] { ids[entity] }
    func allRows() -> [PersistentIdentifier: Row] { rows }

    func perform(_ operation: WriteOperation) throws(StoreError) {
        guard isOpen else { throw StoreError(.closed, path: location, message: "the storage is closed") }
        switch operation {
        case .begin:
            pending = []
        case .commit:
            let operations = pending ?? []
            pending = nil
            for operation in operations { write(operation) }
        default:
            if pending != nil { pending!.append(operation) } else { write(operation) }
        }
    }

    func abandon() {
        pending = nil
        isOpen = false
    }

    func close() {
        pending = nil
        isOpen = false
    }

    /// Writes a whole save at once: the state its operations reach when none is interrupted.
    func write(_ plan: SavePlan) throws(StoreError) {
        guard isOpen else { throw StoreError(.closed, path: location, message: "the storage is closed") }
        for (id, entity) in plan.deletions { write(.deleteRow(id, entity: entity)) }
        for row in plan.rows where rows.updateValue(Row(entity: row.entity, values: row.values, links: row.links), forKey: row.id) == nil {
            insertID(row.id, row.entity)
        }
        if let counters = plan.counters { self.counters = counters }
    }

    private func insertID(_ id: PersistentIdentifier, _ entity: Int) {
        if let last = ids[entity].last, last.number > id.number {
            let position = ids[entity].firstIndex { $0.number > id.number } ?? ids[entity].endIndex
            ids[entity].insert(id, at: position)
        } else {
            ids[entity].append(id)
        }
    }

    private func write(_ operation: WriteOperation) {
        switch operation {
        case .begin, .commit:
            break
        case .deleteRow(let id, let entity):
            guard rows.removeValue(forKey: id) != nil else { return }
            if let position = ids[entity].firstIndex(of: id) { ids[entity].remove(at: position) }
        case .putRow(let id, let entity, let values):
            if rows[id] != nil {
                rows[id]!.values = values
                return
            }
            rows[id] = Row(entity: entity, values: values, links: Array(repeating: [], count: schema.entities[entity].relationships.count))
            insertID(id, entity)
        case .putLinks(let id, _, let relationship, let targets):
            if rows[id] != nil { rows[id]!.links[relationship] = targets }
        case .setCounters(let values):
            counters = values
        }
    }
}
