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
    /// Provenance: the rule that made the object's pending change when a save's delete rules made it (G9, or the app
    /// rule owning the delete rule), nil when the app's own steps did; its row is written under it.
    var changedBy: String?
    /// Provenance: the rule that last changed each relationship's pairs, when it was not relating or unrelating
    /// (G7): a save's nullify removing a deleted model from its partner. Empty while every list is G7's.
    var linkRules: [String] = []
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

/// An identifier held by a `holdID` step, with the launch of the store it was taken in (G23, G24).
public struct HeldID: Sendable, Equatable {
    public var id: SpecID?
    public var launch: Int
}

/// The executable specification's state for one schema: every model object, two contexts (0 and 1) over one
/// container whose saved snapshot is `rows`, the references the steps bound and the identifiers they held. Pure
/// values, nothing but what the rules need to predict.
public struct GraphModel: Sendable {
    public let schema: GraphSchema
    public let parameters: StoreParameters
    public var entities: [SpecEntity] { schema.entities }
    public internal(set) var objects: [SpecObject] = []
    /// Object index per reference; -1 for a lookup that found nothing.
    public internal(set) var refs: [Int] = []
    /// The saved snapshot: rows by row number (nil once deleted).
    public internal(set) var rows: [SpecRow?] = []
    /// Identifiers held by `holdID` steps.
    public internal(set) var held: [HeldID] = []
    /// R4: the permanent identifier each saved temporary one became (only when `temporaryIDAfterSave` resolves).
    var savedAs: [SpecID: SpecID] = [:]
    var temporaryCount = 0
    /// How many times the store has been opened (1 for a new store; a relaunch opens it again, G22–G24, G27).
    public internal(set) var launch = 1
    /// Set once a step trapped: the process would have stopped, so the case ends.
    public internal(set) var crashed = false

    /// Ends the case after a step whose predicted trap the specification's own steps did not note (an app's
    /// action predicting a trap): the process would have stopped.
    public mutating func crash() { crashed = true }

    public init(schema: GraphSchema, parameters: StoreParameters) {
        self.schema = schema
        self.parameters = parameters
    }

    /// The object a reference names, if any.
    public func object(_ ref: Int) -> Int? {
        guard ref >= 0, ref < refs.count, refs[ref] >= 0 else { return nil }
        return refs[ref]
    }

    /// The objects of context `c` that satisfy `include`, in creation order.
    public func objects(in c: Int, where include: (SpecObject) -> Bool) -> [Int] {
        objects.indices.filter { objects[$0].context == c && include(objects[$0]) }
    }

    /// The model context `c` has registered under `id` (G5, G14–G16): one per identifier.
    public func registered(_ id: SpecID, _ c: Int) -> Int? {
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
                             entityName: entities[row.entity].name, values: row.values,
                             links: row.links.map { CanonicalRow.sortedNames($0.map(rowName)) })
            }
        }.sorted()
    }
}

/// A saved row named for comparison: relationship contents sorted.
public struct CanonicalRow: Equatable, Comparable, Sendable, CustomStringConvertible {
    public var name: ObjectName
    public var entity: Int
    public var entityName: String
    public var values: [SpecValue]
    public var links: [[ObjectName]]

    public init(name: ObjectName, entity: Int, entityName: String, values: [SpecValue], links: [[ObjectName]]) {
        self.name = name
        self.entity = entity
        self.entityName = entityName
        self.values = values
        self.links = links
    }

    /// Relationship contents in canonical order.
    public static func sortedNames(_ names: [ObjectName]) -> [ObjectName] { names.sorted() }

    public static func < (lhs: CanonicalRow, rhs: CanonicalRow) -> Bool { (lhs.name, lhs.entity) < (rhs.name, rhs.entity) }

    public var description: String {
        "\(name) \(entityName) \(values.map(\.description).joined(separator: ",")) "
            + links.map { "[" + $0.map(\.description).joined(separator: ",") + "]" }.joined()
    }
}
