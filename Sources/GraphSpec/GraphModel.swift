/// A model's lifecycle in the specification (raw values match the store's names).
public enum SpecLifecycle: String, Sendable { case new, registered, detached, invalidated }

/// An identifier: temporary (a counter) or permanent (a row), with its entity.
public struct SpecID: Hashable, Sendable {
    public var permanent: Bool
    public var number: Int
    public var entity: Int
}

/// One model object (one per context for a row) in the specification.
public struct SpecObject: Sendable {
    public var entity: Int
    public var values: [SpecValue]
    /// Relationship contents as object indexes, in order.
    public var links: [[Int]]
    var committed: (values: [SpecValue], links: [[Int]])?
    public var lifecycle: SpecLifecycle = .new
    /// -1 when the object has no context.
    public var context = -1
    public var id: SpecID?
    public var pendingInsert = false
    public var pendingDelete = false
    public var changeTracked = false

    public var hasChanges: Bool { pendingInsert || pendingDelete || changeTracked }
}

/// A context: registered objects by identifier and the pending lists, in order.
public struct SpecContext: Sendable {
    var registry: [SpecID: Int] = [:]
    public var inserted: [Int] = []
    public var changed: [Int] = []
    public var deleted: [Int] = []
    public var hasChanges: Bool { !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty }
}

/// A saved row: entity, values, relationships by identifier.
public struct SpecRow: Equatable, Sendable {
    public var entity: Int
    public var values: [SpecValue]
    public var links: [[SpecID]]
}

/// How the last save step ended (decides which rule the saved-rows comparison reports).
public enum SaveOutcome: Sendable { case none, saved, failed }

/// The executable specification's state: objects by symbolic reference, two contexts over one container,
/// the saved rows, held identifiers. Pure values.
public struct GraphModel: Sendable {
    public let config: GraphConfig
    public let entities: [SpecEntity]
    public internal(set) var objects: [SpecObject] = []
    /// Object index per reference; -1 for a lookup that found nothing.
    public internal(set) var refs: [Int] = []
    public internal(set) var contexts: [SpecContext] = [SpecContext(), SpecContext()]
    /// Saved rows by row number (nil once deleted).
    public internal(set) var rows: [SpecRow?] = []
    /// Identifiers held by `holdID` steps.
    public internal(set) var held: [SpecID?] = []
    var remapped: [Int: Int] = [:]
    var nextTemporary = 0
    /// Set once a step trapped: the process would have stopped, so the case ends.
    public internal(set) var crashed = false
    /// Set by a save step: the saved rows are compared after it.
    public internal(set) var checkRows = false
    public internal(set) var lastSave: SaveOutcome = .none
    /// Set when a save's delete rules cascaded from a deleted work (B6 decides its saved rows).
    public internal(set) var cascadedFromWork = false

    public init(config: GraphConfig) {
        self.config = config
        self.entities = BooksEntities.entities(config.schema)
    }

    /// The object a reference names, if any.
    public func object(_ ref: Int) -> Int? {
        guard ref >= 0, ref < refs.count, refs[ref] >= 0 else { return nil }
        return refs[ref]
    }

    /// The first reference bound to object `o`.
    func firstRef(to o: Int) -> Int {
        refs.firstIndex(of: o) ?? -1
    }

    /// The observation's name of object `o` (see `ObjectName`).
    public func name(_ o: Int) -> ObjectName {
        if let id = objects[o].id, id.permanent { return rowName(id) }
        return ObjectName(row: false, ref: firstRef(to: o))
    }

    /// The name of a saved row (or of a permanent identifier): the first reference whose object has it.
    public func rowName(_ id: SpecID) -> ObjectName {
        for (r, o) in refs.enumerated() where o >= 0 && objects[o].id == id { return ObjectName(row: true, ref: r) }
        return ObjectName(row: true, ref: -1)
    }

    /// The saved rows as observations name them, sorted: the order-independent saved state.
    public func canonicalRows() -> [CanonicalRow] {
        // The first reference of each row (as `rowName` finds it), in one pass over the references.
        var firstRef = Array(repeating: -1, count: rows.count)
        for (r, o) in refs.enumerated() where o >= 0 {
            guard let id = objects[o].id, id.permanent, id.number < rows.count, firstRef[id.number] < 0,
                  rows[id.number]?.entity == id.entity else { continue }
            firstRef[id.number] = r
        }
        func name(_ id: SpecID) -> ObjectName {
            ObjectName(row: true, ref: id.number < rows.count && rows[id.number]?.entity == id.entity ? firstRef[id.number] : rowName(id).ref)
        }
        var result: [CanonicalRow] = []
        for (number, row) in rows.enumerated() {
            guard let row else { continue }
            result.append(CanonicalRow(name: ObjectName(row: true, ref: firstRef[number]), entity: row.entity, values: row.values,
                                       links: row.links.map { CanonicalRow.sortedNames($0.map(name)) }))
        }
        return result.sorted()
    }
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

    /// Relationship contents in canonical order (a list of zero or one name is kept as it is, without a copy).
    public static func sortedNames(_ names: [ObjectName]) -> [ObjectName] { names.count < 2 ? names : names.sorted() }

    public static func < (lhs: CanonicalRow, rhs: CanonicalRow) -> Bool {
        if lhs.name != rhs.name { return lhs.name < rhs.name }
        return lhs.entity < rhs.entity
    }

    public var description: String {
        "\(name) \(BooksEntities.names[entity]) \(values.map(\.description).joined(separator: ",")) "
            + links.map { "[" + $0.map(\.description).joined(separator: ",") + "]" }.joined()
    }
}
