import GraphSpec
import GraphStore

/// The store's values and models as the specification names them.
extension SchemaSystem {
    /// A model as observations name it: its saved row (`r:v2`) or, without a permanent identifier, its first reference.
    package func name(_ model: PersistentModel) -> ObjectName {
        if let id = model.persistentModelID, !id.isTemporary { return idName(id) }
        return ObjectName(row: false, ref: refs.firstIndex { $0 === model } ?? -1)
    }

    /// The first reference whose model has identifier `id`.
    func idName(_ id: PersistentIdentifier) -> ObjectName {
        let ref = refs.firstIndex { $0?.persistentModelID == id } ?? -1
        return ObjectName(row: !id.isTemporary, ref: ref)
    }

    /// The index of the context holding `model`, -1 for none.
    package func contextIndex(_ model: PersistentModel) -> Int {
        guard let context = model.modelContext else { return -1 }
        return contexts.firstIndex { $0 === context } ?? -1
    }

    /// The container's rows named as the specification names them, sorted.
    package func canonicalRows() -> [CanonicalRow] {
        let rows = container.rows
        let naming = RowNaming(refs: refs, entities: container.schema.entities, rows: rows.keys)
        return rows.map { id, row in
            CanonicalRow(name: naming.name(id), entity: row.entity, entityName: container.schema.entities[row.entity].name,
                         values: row.values.map(Self.spec), links: row.links.map { CanonicalRow.sortedNames($0.map(naming.name)) })
        }.sorted()
    }

    /// How many models the target's inverse of `source`'s relationship `r` holds (-1 without an inverse).
    static func inverseCount(_ source: PersistentModel, _ r: Int, _ target: PersistentModel) -> Int {
        guard let name = source.entity.relationships[r].inverse, let inverse = target.entity.relationshipIndex(named: name) else { return -1 }
        return target.related(inverse).count
    }

    /// How many of `model`'s related models (with backing data, and readable when their deletion was saved: unless
    /// `readsDetached`, reading those traps) hold it in the inverse relationship.
    static func referencedBy(_ model: PersistentModel, readsDetached: Bool = true) -> Int {
        var count = 0
        for (r, relationship) in model.entity.relationships.enumerated() {
            guard let name = relationship.inverse else { continue }
            for partner in model.related(r) where partner.lifecycle != .invalidated && (readsDetached || partner.lifecycle != .detached) {
                if let inverse = partner.entity.relationshipIndex(named: name), partner.related(inverse).contains(where: { $0 === model }) {
                    count += 1
                }
            }
        }
        return count
    }

    package static func kind(_ id: PersistentIdentifier?) -> IDKind {
        guard let id else { return .none }
        return id.isTemporary ? .temporary : .permanent
    }

    /// A specification value as the store holds it.
    package static func store(_ value: SpecValue) -> AttributeValue {
        switch value {
        case .null: return .null
        case .bool(let v): return .bool(v)
        case .int(let v): return .int(v)
        case .string(let v): return .string(v)
        case .strings(let v): return .strings(v)
        }
    }

    /// A stored value as the specification writes it.
    package static func spec(_ value: AttributeValue) -> SpecValue {
        switch value {
        case .null: return .null
        case .bool(let v): return .bool(v)
        case .int(let v): return .int(v)
        case .string(let v): return .string(v)
        case .strings(let v): return .strings(v)
        }
    }
}

/// Names identifiers as the specification names saved rows: by the first reference whose model has the identifier.
/// The first references are found in one pass and kept in one flat table indexed by (kind, entity, number) — the
/// store numbers identifiers per kind and entity — instead of a dictionary of identifiers.
struct RowNaming {
    let refs: [PersistentModel?]
    let entities: [EntitySchema]
    private let width: Int
    private var firstRef: [Int] = []

    /// `rows`: the identifiers to be named are mostly the rows' (the table covers their numbers; any other
    /// identifier is named by a search of the references).
    init(refs: [PersistentModel?], entities: [EntitySchema], rows: Dictionary<PersistentIdentifier, Row>.Keys) {
        self.refs = refs
        self.entities = entities
        var width = 1
        for id in rows where id.number >= width { width = id.number + 1 }
        self.width = width
        firstRef = Array(repeating: -1, count: 2 * entities.count * width)
        for (r, model) in refs.enumerated() {
            if let id = model?.persistentModelID, let s = slot(id), firstRef[s] < 0 { firstRef[s] = r }
        }
    }

    private func slot(_ id: PersistentIdentifier) -> Int? {
        guard let entity = entities.firstIndex(where: { $0.name == id.entityName }), id.number >= 0, id.number < width else { return nil }
        return ((id.isTemporary ? 0 : entities.count) + entity) * width + id.number
    }

    /// The row name of `id`: `r:` and the first reference whose model has it (-1 for none).
    func name(_ id: PersistentIdentifier) -> ObjectName {
        if let s = slot(id) {
            let r = firstRef[s]
            // The table is keyed without the store identifier: confirm the whole identifier, else search.
            if r < 0 || refs[r]?.persistentModelID == id { return ObjectName(row: true, ref: r) }
        }
        return ObjectName(row: true, ref: refs.firstIndex { $0?.persistentModelID == id } ?? -1)
    }
}
