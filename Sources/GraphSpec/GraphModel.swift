/// A model's lifecycle in the specification (raw values match the store's names).
public enum SpecLifecycle: String, Sendable { case new, registered, detached, invalidated }

/// An identifier: temporary (a counter) or permanent (a row number), with its entity.
public struct SpecID: Hashable, Sendable {
    public var permanent: Bool
    public var number: Int
    public var entity: Int
}

/// One model object (a context holds one per row it has seen). Its relationships are the pairs
/// (self, relationship, target), kept as one list of targets per relationship in the order they were related.
public struct SpecObject: Sendable {
    public var entity: Int
    public var values: [SpecValue]
    public var links: [[Int]]
    public var lifecycle: SpecLifecycle = .new
    /// The context holding the object, -1 for none.
    public var context = -1
    public var id: SpecID?
    /// What the context will do with the object at its next save.
    public var inserted = false, deleted = false, changed = false
    /// Values and relationships as of the object's last save or fetch (what rollback returns to, R32).
    var committed: (values: [SpecValue], links: [[Int]])?

    public var hasChanges: Bool { inserted || deleted || changed }
}

/// A saved row: entity, values, relationships by identifier.
public struct SpecRow: Equatable, Sendable {
    public var entity: Int
    public var values: [SpecValue]
    public var links: [[SpecID]]
}

/// How the last save step ended (decides which rule the saved-rows comparison reports).
public enum SaveOutcome: Sendable { case none, saved, failed, killed }

/// The executable specification's state: every model object, two contexts (0 and 1) over one container whose
/// saved snapshot is `rows`, the references the steps bound and the identifiers they held. Pure values.
public struct GraphModel: Sendable {
    public let config: GraphConfig
    public let entities: [SpecEntity]
    public internal(set) var objects: [SpecObject] = []
    /// Object index per reference; -1 for a lookup that found nothing.
    public internal(set) var refs: [Int] = []
    /// The saved snapshot: rows by row number (nil once deleted).
    public internal(set) var rows: [SpecRow?] = []
    /// Identifiers held by `holdID` steps.
    public internal(set) var held: [SpecID?] = []
    /// R4: the permanent identifier each saved temporary one became (only when `temporaryIDAfterSave` resolves).
    var savedAs: [SpecID: SpecID] = [:]
    var temporaryCount = 0
    /// Set once a step trapped: the process would have stopped, so the case ends.
    public internal(set) var crashed = false
    /// Set by a save step: the saved rows are compared after it.
    public internal(set) var checkRows = false
    public internal(set) var lastSave: SaveOutcome = .none
    /// Set when a save's cascade ran from a deleted work (B6 decides the saved rows after it).
    public internal(set) var cascadedFromWork = false
    /// The models a save's delete rules changed: the ones its cascade added and the partners nullify left (G9).
    public internal(set) var deleteRulesTouched: [Int] = []
    /// How many identifiers were held when the store was last relaunched (G23, G24 decide lookups of those).
    public internal(set) var heldBeforeRelaunch = 0
    /// How many times the store was relaunched (G27 decides the numbers of rows saved after one), and whether
    /// this step relaunched it (G26).
    public internal(set) var relaunches = 0
    public internal(set) var relaunchedNow = false
    /// The row numbers the last successful save gave its inserts (G27: numbered above every earlier one).
    public internal(set) var numberedByLastSave: [Int] = []
    /// The entity of every row number given so far (deleted rows included), and how many were given before the
    /// last relaunch (G27).
    public internal(set) var numberedEntities: [Int] = []
    public internal(set) var numberedBeforeRelaunch = 0
    /// The rules besides the step's own that decided a part of its observation (a save's cascade and nullify,
    /// its deny check; an insert that reached related new models), for coverage. Reset by every step.
    public internal(set) var alsoDecided: [String] = []

    public init(config: GraphConfig) {
        self.config = config
        self.entities = BooksEntities.entities(config.schema)
    }

    /// Notes that `rule` decided a part of this step's observation (once per step).
    mutating func decided(_ rule: String) {
        if !alsoDecided.contains(rule) { alsoDecided.append(rule) }
    }

    /// The object a reference names, if any.
    public func object(_ ref: Int) -> Int? {
        guard ref >= 0, ref < refs.count, refs[ref] >= 0 else { return nil }
        return refs[ref]
    }

    /// The objects of context `c` that satisfy `include`, in creation order.
    func objects(in c: Int, where include: (SpecObject) -> Bool) -> [Int] {
        objects.indices.filter { objects[$0].context == c && include(objects[$0]) }
    }

    /// The model context `c` has registered under `id` (G5, G14–G16): one per identifier.
    func registered(_ id: SpecID, _ c: Int) -> Int? {
        objects.indices.first { objects[$0].context == c && objects[$0].id == id }
    }

    /// The observation's name of object `o` (see `ObjectName`).
    public func name(_ o: Int) -> ObjectName {
        if let id = objects[o].id, id.permanent { return rowName(id) }
        return ObjectName(row: false, ref: refs.firstIndex(of: o) ?? -1)
    }

    /// The name of a saved row (or of a permanent identifier): the first reference whose object has it.
    public func rowName(_ id: SpecID) -> ObjectName {
        ObjectName(row: true, ref: refs.firstIndex { $0 >= 0 && objects[$0].id == id } ?? -1)
    }

    /// The saved rows as observations name them, sorted: the order-independent saved state.
    public func canonicalRows() -> [CanonicalRow] {
        rows.indices.compactMap { number in
            rows[number].map { row in
                CanonicalRow(name: rowName(SpecID(permanent: true, number: number, entity: row.entity)), entity: row.entity,
                             values: row.values, links: row.links.map { CanonicalRow.sortedNames($0.map(rowName)) })
            }
        }.sorted()
    }

    /// The names of the saved rows (see `SavedRowNames`).
    public func savedRowNames() -> SavedRowNames {
        SavedRowNames(firstRef: rows.indices.map { number in
            rows[number].map { rowName(SpecID(permanent: true, number: number, entity: $0.entity)).ref } ?? -1
        })
    }
}

/// How observations name saved rows: by the first reference whose object has the row's identifier.
public struct SavedRowNames: Sendable {
    /// Per row number: the first reference to the row (-1: none, or no such row).
    public let firstRef: [Int]

    /// The name of identifier `id` of `model` (the model these names were taken from).
    public func name(_ id: SpecID, _ model: GraphModel) -> ObjectName { model.rowName(id) }
}

/// A saved row named for comparison: relationship contents sorted.
public struct CanonicalRow: Equatable, Comparable, Sendable, CustomStringConvertible {
    public var name: ObjectName
    public var entity: Int
    public var values: [SpecValue]
    public var links: [[ObjectName]]

    public init(name: ObjectName, entity: Int, values: [SpecValue], links: [[ObjectName]]) {
        self.name = name
        self.entity = entity
        self.values = values
        self.links = links
    }

    /// Relationship contents in canonical order.
    public static func sortedNames(_ names: [ObjectName]) -> [ObjectName] { names.sorted() }

    public static func < (lhs: CanonicalRow, rhs: CanonicalRow) -> Bool { (lhs.name, lhs.entity) < (rhs.name, rhs.entity) }

    public var description: String {
        "\(name) \(BooksEntities.names[entity]) \(values.map(\.description).joined(separator: ",")) "
            + links.map { "[" + $0.map(\.description).joined(separator: ",") + "]" }.joined()
    }
}
