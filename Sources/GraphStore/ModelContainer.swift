/// A saved row: the entity, its attribute values and its relationships by permanent identifier.
public struct Row: Equatable, Sendable {
    public var entity: Int
    public var values: [AttributeValue]
    public var links: [[PersistentIdentifier]]
}

/// The saved rows, shared by any number of contexts, in memory or in an SQLite file (`init(schema:configuration:path:)`).
public final class ModelContainer {
    public let schema: Schema
    public let configuration: ModelConfiguration
    /// Where the saved rows live: the seam between the store and its backends.
    let storage: any RowStorage
    /// Traps recorded under `.record`, in order.
    public private(set) var traps: [StoreTrap] = []
    /// Temporary identifiers of saved models and the permanent identifiers they became (R4, `.resolves`).
    var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
    var contexts: [ModelContext] = []
    var nextTemporary = 0
    var nextPermanent: [Int]
    /// Every model this container registered, so `tearDown` can break reference cycles.
    var registeredEver: [PersistentModel] = []
    /// Names the issuer of this launch's temporary identifiers: a temporary identifier of an earlier launch
    /// never equals one of this launch (as Core Data's `t<UUID>` never repeats).
    let temporaryIssuer: String
    /// How saves group their writes into transactions (a mutant selects a faulty grouping).
    package var saveTransactions: SaveTransactions = .single
    /// Where a save stops as if the process died (the kill tests and the harness's interrupted saves).
    package var writeInterruption: WriteInterruption?
    /// Write operations performed since this container was opened.
    package private(set) var writeOperations = 0
    /// Set by `close()` and by an interrupted save; the storage may live on in a relaunched container.
    var isClosed = false

    /// A container over new, empty rows in memory.
    public convenience init(schema: Schema, configuration: ModelConfiguration = ModelConfiguration()) {
        self.init(schema: schema, configuration: configuration,
                  storage: MemoryRowStorage(schema: schema, storeIdentifier: configuration.storeIdentifier))
    }

    /// A container over the SQLite store file at `path`, created (empty) when no file is there. The store
    /// identifier of permanent identifiers is the file's own (`configuration.storeIdentifier` when it was
    /// created). An empty, truncated, corrupt or foreign file, or one made for another schema, is refused.
    public convenience init(schema: Schema, configuration: ModelConfiguration = ModelConfiguration(), path: String) throws(StoreError) {
        let storage = try SQLiteRowStorage(path: path, schema: schema, storeIdentifier: configuration.storeIdentifier)
        self.init(schema: schema, configuration: configuration, storage: storage)
    }

    /// A container over new, empty rows in memory for the model classes given and those their relationships lead
    /// to (SwiftData's `ModelContainer(for: Work.self, Edition.self)`). Throws when the declarations do not make a
    /// schema (`Schema(_:)`).
    public convenience init(for modelClasses: PersistentModel.Type..., configurations: ModelConfiguration = ModelConfiguration()) throws(SchemaError) {
        self.init(schema: try Schema(modelClasses), configuration: configurations)
    }

    init(schema: Schema, configuration: ModelConfiguration, storage: any RowStorage) {
        self.schema = schema
        self.configuration = configuration
        self.storage = storage
        self.nextPermanent = storage.counters
        self.temporaryIssuer = storage.launch == 1 ? storage.storeIdentifier : "\(storage.storeIdentifier)#\(storage.launch)"
    }

    /// The store identifier of this container's permanent identifiers.
    public var storeIdentifier: String { storage.storeIdentifier }
    /// The store file, or nil for rows in memory.
    public var path: String? { storage is SQLiteRowStorage ? storage.location : nil }
    /// How many times the store has been opened, this container's opening included (1 for a new store).
    public var launch: Int { storage.launch }
    /// Whether the container can still read and save (false after `close()`, `relaunch()` or an interrupted save).
    public var isOpen: Bool { !isClosed && storage.isOpen }

    /// The saved rows by permanent identifier (read from the file on the SQLite backend; empty once closed).
    public var rows: [PersistentIdentifier: Row] {
        guard isOpen else { return [:] }
        return readOrStop { () throws(StoreError) in try storage.allRows() }
    }

    /// The saved row of `id`.
    func row(_ id: PersistentIdentifier) -> Row? {
        guard isOpen else { return nil }
        return readOrStop { () throws(StoreError) in try storage.row(id) }
    }

    /// The identifiers of an entity's saved rows, in ascending number: fetches scan one entity.
    func rowIDs(_ entity: Int) -> [PersistentIdentifier] {
        guard isOpen else { return [] }
        return readOrStop { () throws(StoreError) in try storage.rowIDs(entity) }
    }

    /// A read of an open store. The file was checked when it was opened; a read that fails afterwards (the
    /// file damaged under the open store) stops the process with the store's error.
    private func readOrStop<T>(_ read: () throws(StoreError) -> T) -> T {
        do {
            return try read()
        } catch {
            fatalError("GraphStore could not read its store: \(error)")
        }
    }

    /// Writes `plan` under the container's transaction grouping, counting operations against `writeInterruption`.
    /// On an interruption or a failure the storage is left as the failed operation found it; on an
    /// interruption the container is closed.
    func write(_ plan: SavePlan) throws(StoreError) {
        guard isOpen else { throw StoreError(.closed, path: storage.location, message: "the container is closed") }
        if writeInterruption == nil, let memory = storage as? MemoryRowStorage {
            // Nothing can stop a save in memory part-way: write the plan's end state directly (the hot path).
            try memory.write(plan)
            writeOperations += plan.operationCount(saveTransactions)
            return
        }
        let operations = plan.operations(saveTransactions)
        let stop = writeInterruption?.afterOperations(done: writeOperations, planned: operations.count)
        for operation in operations {
            if let interruption = writeInterruption, let stop, writeOperations >= stop {
                switch interruption.action {
                case .abandon:
                    storage.abandon()
                    isClosed = true
                    throw StoreError(.interrupted, path: storage.location,
                                     message: "the save was interrupted after \(writeOperations) write operations")
                case .perform(let action):
                    action()
                }
            }
            try storage.perform(operation)
            writeOperations += 1
        }
    }

    /// The main context.
    public private(set) lazy var mainContext: ModelContext = ModelContext(self)

    /// Stops the process with the trap's message (`.crash`) or records it (`.record`).
    func raise(_ trap: StoreTrap) {
        switch configuration.trapPolicy {
        case .crash: fatalError(trap.description)
        case .record: traps.append(trap)
        }
    }

    func temporaryID(_ entity: Int) -> PersistentIdentifier {
        nextTemporary += 1
        return PersistentIdentifier(entityName: schema.entities[entity].name, kind: .temporary,
                                    storeIdentifier: temporaryIssuer, number: nextTemporary)
    }

    func permanentID(_ entity: Int) -> PersistentIdentifier {
        nextPermanent[entity] += 1
        return PersistentIdentifier(entityName: schema.entities[entity].name, kind: .permanent,
                                    storeIdentifier: storage.storeIdentifier, number: nextPermanent[entity])
    }

    /// The identifier a lookup should use: a temporary one remapped to the permanent one when R4 says so.
    func resolve(_ id: PersistentIdentifier) -> PersistentIdentifier {
        guard id.isTemporary, configuration.behavior.temporaryIDAfterSave == .resolves, let permanent = remapped[id] else { return id }
        return permanent
    }

    /// Marks other contexts' models of deleted rows invalidated (R28).
    func rowsDeleted(_ ids: [PersistentIdentifier], by saver: ModelContext) {
        for context in contexts where context !== saver {
            for id in ids {
                if let model = context.registry[id] { model.lifecycle = .invalidated }
            }
        }
    }

    /// Breaks the reference cycles between models and contexts; every model of this container becomes invalid.
    public func tearDown() {
        for model in registeredEver {
            model.links = model.entity.emptyLinks
            model.committed = nil
            model.modelContext = nil
        }
        registeredEver = []
        for context in contexts { context.forgetAll() }
        contexts = []
    }
}

extension PersistentModel {
    /// Drops this model's relationship storage without inverse maintenance or change tracking.
    ///
    /// Models that were never inserted can still link to each other (R1), and their inverse links keep
    /// each other alive; `ModelContainer.tearDown()` only reaches models a context registered. Call this
    /// on such a graph's models when discarding it.
    public func breakReferenceCycles() {
        links = entity.emptyLinks
    }
}
