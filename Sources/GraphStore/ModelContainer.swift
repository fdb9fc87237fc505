/// A saved row: the entity, its attribute values and its relationships by permanent identifier.
public struct Row: Equatable, Sendable {
    public var entity: Int
    public var values: [AttributeValue]
    public var links: [[PersistentIdentifier]]
}

/// The saved rows, shared by any number of contexts.
public final class ModelContainer {
    public let schema: Schema
    public let configuration: ModelConfiguration
    /// The saved rows by permanent identifier.
    public private(set) var rows: [PersistentIdentifier: Row] = [:]
    /// The identifiers of each entity's rows (by schema index), in ascending number: fetches scan one entity.
    private(set) var rowIDs: [[PersistentIdentifier]]
    /// Traps recorded under `.record`, in order.
    public private(set) var traps: [StoreTrap] = []
    /// Temporary identifiers of saved models and the permanent identifiers they became (R4, `.resolves`).
    var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
    var contexts: [ModelContext] = []
    var nextTemporary = 0
    var nextPermanent: [Int]
    /// Every model this container registered, so `tearDown` can break reference cycles.
    var registeredEver: [PersistentModel] = []

    public init(schema: Schema, configuration: ModelConfiguration = ModelConfiguration()) {
        self.schema = schema
        self.configuration = configuration
        self.nextPermanent = Array(repeating: 0, count: schema.entities.count)
        self.rowIDs = Array(repeating: [], count: schema.entities.count)
    }

    /// Writes the row of `id` (a new row joins its entity's list).
    func setRow(_ id: PersistentIdentifier, _ row: Row) {
        guard rows.updateValue(row, forKey: id) == nil else { return }
        if let last = rowIDs[row.entity].last, last.number > id.number {
            let position = rowIDs[row.entity].firstIndex { $0.number > id.number } ?? rowIDs[row.entity].endIndex
            rowIDs[row.entity].insert(id, at: position)
        } else {
            rowIDs[row.entity].append(id)
        }
    }

    /// Removes the row of `id`; whether there was one.
    @discardableResult
    func removeRow(_ id: PersistentIdentifier) -> Bool {
        guard let row = rows.removeValue(forKey: id) else { return false }
        if let position = rowIDs[row.entity].firstIndex(of: id) { rowIDs[row.entity].remove(at: position) }
        return true
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
                                    storeIdentifier: configuration.storeIdentifier, number: nextTemporary)
    }

    func permanentID(_ entity: Int) -> PersistentIdentifier {
        nextPermanent[entity] += 1
        return PersistentIdentifier(entityName: schema.entities[entity].name, kind: .permanent,
                                    storeIdentifier: configuration.storeIdentifier, number: nextPermanent[entity])
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
