/// What happens to the destination of a relationship when its source is deleted (applied at save, R19).
public enum DeleteRule: String, Sendable, CaseIterable {
    case nullify, cascade, deny, noAction
}

/// The type of an attribute.
public enum AttributeKind: String, Sendable {
    case bool, int, string
    /// A list of strings (`AttributeValue.strings`).
    case strings
}

/// An attribute of an entity: type, optionality, default and simple validation (R25).
public struct AttributeSchema: Sendable, Equatable {
    public var name: String
    public var kind: AttributeKind
    public var isOptional: Bool
    /// The value a new model starts with; `.null` for none.
    public var defaultValue: AttributeValue
    /// Allowed integer range (1610 above, 1620 below).
    public var range: ClosedRange<Int>?
    /// Allowed string length, or number of elements of a list (1660 longer, 1670 shorter).
    public var length: ClosedRange<Int>?
    /// A unique attribute (R7): at most one row per value; a pending insert with a saved value upserts.
    public var isUnique: Bool

    public init(_ name: String, _ kind: AttributeKind, optional: Bool = false, default defaultValue: AttributeValue = .null,
                range: ClosedRange<Int>? = nil, length: ClosedRange<Int>? = nil, unique: Bool = false) {
        self.name = name
        self.kind = kind
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.range = range
        self.length = length
        self.isUnique = unique
    }
}

/// A relationship of an entity: destination, cardinality, inverse, delete rule, optionality, counts.
public struct RelationshipSchema: Sendable, Equatable {
    public var name: String
    public var destination: String
    public var isToMany: Bool
    /// The inverse relationship's name on the destination, if declared.
    public var inverse: String?
    public var deleteRule: DeleteRule
    public var isOptional: Bool
    /// Minimum and maximum number of destinations for a to-many (1580 too few, 1590 too many).
    public var minCount: Int?
    public var maxCount: Int?

    public init(_ name: String, to destination: String, toMany: Bool, inverse: String?, deleteRule: DeleteRule = .nullify,
                optional: Bool = true, minCount: Int? = nil, maxCount: Int? = nil) {
        self.name = name
        self.destination = destination
        self.isToMany = toMany
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isOptional = optional
        self.minCount = minCount
        self.maxCount = maxCount
    }
}

/// The shape of an entity. Each model class declares one (`PersistentModel.schemaEntity`); a container's
/// `Schema` may carry a variant of it (another delete rule, say) for a configuration.
public struct EntitySchema: Sendable, Equatable {
    public var name: String
    public var attributes: [AttributeSchema] {
        didSet { defaultValues = attributes.map(\.defaultValue) }
    }
    public var relationships: [RelationshipSchema] {
        didSet { emptyRelationships = EmptyRelationships(count: relationships.count) }
    }
    /// Each attribute's default, in order: a new model's values (shared until the first change).
    public private(set) var defaultValues: [AttributeValue]
    /// One empty list per relationship: a new model's relationships (shared until the first link).
    private var emptyRelationships: EmptyRelationships
    var emptyLinks: [[PersistentModel]] { emptyRelationships.lists }
    /// Index in `relationships` of each relationship's inverse on the destination, resolved by `Schema`.
    public internal(set) var inverseIndex: [Int?]
    /// Index in the schema of each relationship's destination, resolved by `Schema`.
    public internal(set) var destinationIndex: [Int]

    public init(name: String, attributes: [AttributeSchema], relationships: [RelationshipSchema]) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.defaultValues = attributes.map(\.defaultValue)
        self.emptyRelationships = EmptyRelationships(count: relationships.count)
        self.inverseIndex = Array(repeating: nil, count: relationships.count)
        self.destinationIndex = Array(repeating: -1, count: relationships.count)
    }

    /// Equal shapes: name, attributes, relationships and their resolution (the derived lists follow from them).
    public static func == (lhs: EntitySchema, rhs: EntitySchema) -> Bool {
        lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships
            && lhs.inverseIndex == rhs.inverseIndex && lhs.destinationIndex == rhs.destinationIndex
    }

    public func attributeIndex(named name: String) -> Int? { attributes.firstIndex { $0.name == name } }
    public func relationshipIndex(named name: String) -> Int? { relationships.firstIndex { $0.name == name } }

    /// A copy with one relationship's delete rule replaced (for a configuration variant).
    public func with(deleteRule: DeleteRule, for relationship: String) -> EntitySchema {
        var copy = self
        if let index = relationshipIndex(named: relationship) { copy.relationships[index].deleteRule = deleteRule }
        return copy
    }

    /// A copy with one relationship's optionality replaced.
    public func with(optional: Bool, for relationship: String) -> EntitySchema {
        var copy = self
        if let index = relationshipIndex(named: relationship) { copy.relationships[index].isOptional = optional }
        return copy
    }
}

/// A schema that does not hold together: a destination or inverse that does not exist or does not point back.
public struct SchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    public var entity: String
    public var relationship: String
    public var message: String
    public var description: String { "\(entity).\(relationship): \(message)" }
}

/// The entities of a container, with relationship destinations and inverses resolved to indexes.
public struct Schema: Sendable, Equatable {
    public private(set) var entities: [EntitySchema]
    /// The model class of each entity, to materialize rows.
    let types: [ModelTypeBox]
    /// Whether any entity declares a unique attribute (R7); saves skip the duplicate check otherwise.
    public let hasUniqueAttributes: Bool

    /// A schema of model classes, each with its declared entity, optionally replacing some entities
    /// (matched by name) with configuration variants.
    public init(_ types: [PersistentModel.Type], variants: [EntitySchema] = []) throws(SchemaError) {
        var entities = types.map { $0.schemaEntity }
        for variant in variants {
            guard let index = entities.firstIndex(where: { $0.name == variant.name }) else {
                throw SchemaError(entity: variant.name, relationship: "", message: "variant of an entity the schema does not hold")
            }
            entities[index] = variant
        }
        try self.init(resolving: entities, types: types)
    }

    /// A schema declared without model classes: its models are `PersistentModel`s made by `newModel(_:)` and
    /// read and written by name (`value(named:)`, `relate(_:to:)`), as an app's generated or dynamic models.
    public init(entities: [EntitySchema]) throws(SchemaError) {
        try self.init(resolving: entities, types: entities.map { _ in PersistentModel.self })
    }

    /// Resolves every relationship's destination and inverse to indexes.
    private init(resolving declared: [EntitySchema], types: [PersistentModel.Type]) throws(SchemaError) {
        var entities = declared
        for e in entities.indices {
            if let other = entities[..<e].first(where: { $0.name == entities[e].name }) {
                throw SchemaError(entity: other.name, relationship: "", message: "the schema declares \(other.name) twice")
            }
            for r in entities[e].relationships.indices {
                let rel = entities[e].relationships[r]
                guard let d = entities.firstIndex(where: { $0.name == rel.destination }) else {
                    throw SchemaError(entity: entities[e].name, relationship: rel.name, message: "destination \(rel.destination) is not in the schema")
                }
                entities[e].destinationIndex[r] = d
                if let inverse = rel.inverse {
                    guard let i = entities[d].relationshipIndex(named: inverse) else {
                        throw SchemaError(entity: entities[e].name, relationship: rel.name, message: "inverse \(rel.destination).\(inverse) does not exist")
                    }
                    let back = entities[d].relationships[i]
                    guard back.destination == entities[e].name, back.inverse == nil || back.inverse == rel.name else {
                        throw SchemaError(entity: entities[e].name, relationship: rel.name, message: "inverse \(rel.destination).\(inverse) does not point back")
                    }
                    entities[e].inverseIndex[r] = i
                }
            }
        }
        self.entities = entities
        self.types = types.map { ModelTypeBox(type: $0) }
        self.hasUniqueAttributes = entities.contains { $0.attributes.contains(where: \.isUnique) }
    }

    /// A new model of entity `name` (not inserted; every attribute at its default): an instance of the entity's
    /// model class, or a `PersistentModel` for a schema declared without classes. Nil for an unknown entity.
    public func newModel(_ name: String) -> PersistentModel? {
        guard let index = entityIndex(named: name) else { return nil }
        return types[index].type.init(backingData: BackingData(entity: entities[index]))
    }

    public func entityIndex(named name: String) -> Int? { entities.firstIndex { $0.name == name } }

    public static func == (lhs: Schema, rhs: Schema) -> Bool { lhs.entities == rhs.entities }
}

/// Empty relationship lists, one per relationship. Holding no model, they are safe to share across
/// concurrency domains, which the compiler cannot see through the element type.
struct EmptyRelationships: @unchecked Sendable {
    let lists: [[PersistentModel]]
    init(count: Int) { lists = Array(repeating: [], count: count) }
}

/// A model class held in a `Sendable` schema (metatypes of non-final classes are not `Sendable` by themselves).
struct ModelTypeBox: @unchecked Sendable {
    let type: PersistentModel.Type
}
