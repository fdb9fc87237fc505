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

    package init(_ name: String, _ kind: AttributeKind, optional: Bool = false, default defaultValue: AttributeValue = .null,
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

    package init(_ name: String, to destination: String, toMany: Bool, inverse: String?, deleteRule: DeleteRule = .nullify,
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

/// The shape of an entity, as a schema derives it from a model class's declarations (or, for a schema declared
/// without classes, as given).
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

    package init(name: String, attributes: [AttributeSchema], relationships: [RelationshipSchema]) {
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
}

/// A schema that does not hold together: a property the schema cannot store, a destination or inverse that does not
/// exist or does not point back. `relationship` names the property.
public struct SchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    public var entity: String
    public var relationship: String
    public var message: String
    public var description: String { "\(entity).\(relationship): \(message)" }
}

/// The entities of a container, with relationship destinations and inverses resolved to indexes: made from model
/// classes (SwiftData's `Schema([Work.self, Edition.self])`), whose declarations (`@Attribute`, `@Relationship`) say
/// everything; the classes their relationships lead to are included.
public struct Schema: Sendable, Equatable {
    /// The resolved entities, in order: the classes given, then those their relationships lead to.
    public var entities: [EntitySchema] { models.entities }
    /// The entities with their model classes and layouts, shared by the models that take this schema.
    let models: SchemaModels
    /// Whether any entity declares a unique attribute (R7); saves skip the duplicate check otherwise.
    public let hasUniqueAttributes: Bool

    /// The schema of `modelClasses` and of every class their relationships lead to. Throws when a declaration does
    /// not hold together: a stored property without `@Attribute`, `@Relationship` or `@Transient`, an `inverse:` that
    /// is not a relationship of the other class or that the other class pairs with another, two classes of one name.
    public init(_ modelClasses: [PersistentModel.Type]) throws(SchemaError) {
        var classes: [PersistentModel.Type] = []
        var declarations: [ModelDeclaration] = []
        var queue = modelClasses
        var next = 0
        while next < queue.count {
            let modelClass = queue[next]
            next += 1
            if classes.contains(where: { $0 == modelClass }) { continue }
            let declaration = try ModelReflection.declaration(of: modelClass)
            classes.append(modelClass)
            declarations.append(declaration)
            for destination in declaration.destinations where !queue.contains(where: { $0 == destination }) { queue.append(destination) }
        }
        var entities = declarations.map(\.entity)
        // Each declared inverse (a key path) by name, then the other side paired with it where it declares none.
        for e in entities.indices {
            for r in entities[e].relationships.indices {
                guard let keyPath = declarations[e].inverses[r] else { continue }
                let destination = declarations[e].destinations[r]
                guard let property = ModelReflection.property(keyPath, of: destination), property.isRelationship else {
                    throw SchemaError(entity: entities[e].name, relationship: entities[e].relationships[r].name,
                                      message: "its inverse is not a @Relationship of \(ModelReflection.entityName(destination))")
                }
                entities[e].relationships[r].inverse = property.name
            }
        }
        for e in entities.indices {
            for r in entities[e].relationships.indices {
                let relationship = entities[e].relationships[r]
                guard let inverse = relationship.inverse, let d = entities.firstIndex(where: { $0.name == relationship.destination }),
                      let back = entities[d].relationshipIndex(named: inverse), entities[d].relationships[back].inverse == nil else { continue }
                entities[d].relationships[back].inverse = relationship.name
            }
        }
        try self.init(resolving: entities, classes: classes, layouts: declarations.map(\.layout))
    }

    /// A schema declared without model classes: its models are `PersistentModel`s made by `newModel(_:)` and read
    /// and written by name or index (the harness's drawn schemas, an app's dynamic entities).
    package init(entities: [EntitySchema]) throws(SchemaError) {
        try self.init(resolving: entities, classes: entities.map { _ in nil }, layouts: entities.map { _ in nil })
    }

    /// Resolves every relationship's destination and inverse to indexes.
    private init(resolving declared: [EntitySchema], classes: [PersistentModel.Type?], layouts: [ModelLayout?]) throws(SchemaError) {
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
        self.models = SchemaModels(entities: entities, classes: classes, layouts: layouts)
        self.hasUniqueAttributes = entities.contains { $0.attributes.contains(where: \.isUnique) }
    }

    /// This schema with the relationship `relationship` of entity `entity` changed by `change` (a configuration's
    /// variant: another delete rule, a required relationship).
    package func changing(_ relationship: String, of entity: String, _ change: (inout RelationshipSchema) -> Void) throws(SchemaError) -> Schema {
        var entities = models.entities
        guard let e = entities.firstIndex(where: { $0.name == entity }), let r = entities[e].relationshipIndex(named: relationship) else {
            throw SchemaError(entity: entity, relationship: relationship, message: "no such relationship to change")
        }
        change(&entities[e].relationships[r])
        return try Schema(resolving: entities, classes: models.classes, layouts: models.layouts)
    }

    /// A new model of entity `name` (not inserted; every attribute at the entity's default): an object of the
    /// entity's model class, or a `PersistentModel` for a schema declared without classes. Nil for an unknown entity.
    package func newModel(_ name: String) -> PersistentModel? {
        guard let index = entityIndex(named: name) else { return nil }
        return models.make(index)
    }

    package func entityIndex(named name: String) -> Int? { entities.firstIndex { $0.name == name } }

    /// Gives a new model of a class of this schema its entity, taking the values and relationships its properties
    /// hold (relationships are linked, R10 and R11 applying). A model that has a schema keeps it.
    package func adopt(_ model: PersistentModel) { models.adopt(model) }

    /// The declared property `keyPath` of `modelClass` reads, with its index among the entity's attributes or
    /// relationships; nil when the key path reads no declared property of a class of this schema.
    package func property(_ keyPath: AnyKeyPath, of modelClass: PersistentModel.Type) -> (entity: Int, name: String, isRelationship: Bool, index: Int)? {
        guard let e = models.entityIndex(of: modelClass), let property = ModelReflection.property(keyPath, of: modelClass) else { return nil }
        let index = property.isRelationship ? entities[e].relationshipIndex(named: property.name) : entities[e].attributeIndex(named: property.name)
        return index.map { (e, property.name, property.isRelationship, $0) }
    }

    /// The entity of `modelClass`, if it is a class of this schema.
    package func entityIndex(of modelClass: PersistentModel.Type) -> Int? { models.entityIndex(of: modelClass) }

    public static func == (lhs: Schema, rhs: Schema) -> Bool { lhs.entities == rhs.entities }
}

/// A schema's entities with the model class and layout of each (none for an entity declared without a class):
/// immutable, shared by every model that takes the schema, so a model can give it to a new model it is related to.
final class SchemaModels: @unchecked Sendable {
    let entities: [EntitySchema]
    let classes: [PersistentModel.Type?]
    let layouts: [ModelLayout?]

    init(entities: [EntitySchema], classes: [PersistentModel.Type?], layouts: [ModelLayout?]) {
        self.entities = entities
        self.classes = classes
        self.layouts = layouts
    }

    func entityIndex(of modelClass: PersistentModel.Type) -> Int? { classes.firstIndex { $0 == modelClass } }

    /// Gives `model` the entity of its class (see `Schema.adopt`).
    func adopt(_ model: PersistentModel) {
        guard model.schemaModels == nil else { return }
        guard let e = entityIndex(of: type(of: model)) else {
            preconditionFailure("\(type(of: model)) is not in the schema (\(entities.map(\.name).joined(separator: ", ")))")
        }
        model.adopt(as: e, in: self)
    }

    /// A new model of entity `e` with the entity's default values.
    func make(_ e: Int) -> PersistentModel {
        let model = madeForRow(e)
        model.values = entities[e].defaultValues
        return model
    }

    /// An object of entity `e`'s class with its entity and no relationships: a row's model, whose values the caller sets.
    func madeForRow(_ e: Int) -> PersistentModel {
        let model = (classes[e] ?? PersistentModel.self).init()
        model.takeEntity(e, in: self)
        return model
    }

    /// The schema of the classes `modelClass`'s relationships lead to, for new models related before either has one.
    static func discovering(_ modelClass: PersistentModel.Type) -> SchemaModels {
        do {
            return try Schema([modelClass]).models
        } catch {
            preconditionFailure("the model classes related to \(modelClass) do not make a schema: \(error)")
        }
    }
}

/// Empty relationship lists, one per relationship. Holding no model, they are safe to share across
/// concurrency domains, which the compiler cannot see through the element type.
struct EmptyRelationships: @unchecked Sendable {
    let lists: [[PersistentModel]]
    init(count: Int) { lists = Array(repeating: [], count: count) }
}
