/// One step of a save's write plan. Both backends apply the same plan, operation by operation, so a save
/// interrupted after the same number of operations leaves both in the same state.
enum WriteOperation {
    /// Starts a transaction.
    case begin
    /// Commits the transaction: its operations become visible and durable together.
    case commit
    /// Removes a row and its relationship rows.
    case deleteRow(PersistentIdentifier, entity: Int)
    /// Writes a row's attribute values; a new row starts without relationships, an existing one keeps them.
    case putRow(PersistentIdentifier, entity: Int, values: [AttributeValue])
    /// Replaces the targets of one relationship of an existing row.
    case putLinks(PersistentIdentifier, entity: Int, relationship: Int, targets: [PersistentIdentifier])
    /// Records the last permanent number issued for each entity (Core Data's `Z_PRIMARYKEY.Z_MAX`).
    case setCounters([Int])
}

/// Where a container's saved rows live: the seam between the store and its two backends (rows in memory,
/// an SQLite file). Reads see committed state only; writes arrive as `WriteOperation`s.
protocol RowStorage: AnyObject {
    /// Names the store in permanent identifiers (`x-coredata://STORE/Entity/pN`).
    var storeIdentifier: String { get }
    /// How many times this store has been opened, this opening included.
    var launch: Int { get }
    /// The last permanent number issued for each entity, as committed.
    var counters: [Int] { get }
    /// Where the rows are (a file path, or a label for memory).
    var location: String { get }
    var isOpen: Bool { get }

    /// The committed row of `id` (a permanent identifier of this store), if any.
    func row(_ id: PersistentIdentifier) throws(StoreError) -> Row?
    /// The identifiers of an entity's committed rows, in ascending number.
    func rowIDs(_ entity: Int) throws(StoreError) -> [PersistentIdentifier]
    /// Every committed row.
    func allRows() throws(StoreError) -> [PersistentIdentifier: Row]
    /// Performs one write operation.
    func perform(_ operation: WriteOperation) throws(StoreError)
    /// Stops as a killed process stops: an open transaction is lost, the storage is closed.
    func abandon()
    /// Closes the storage (an open transaction is rolled back).
    func close()
}

extension RowStorage {
    /// Applies `operations` in order.
    func apply(_ operations: [WriteOperation]) throws(StoreError) {
        for operation in operations { try perform(operation) }
    }
}
