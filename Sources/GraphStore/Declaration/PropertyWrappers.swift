/// A stored attribute of a model class, declared as SwiftData's are: `@Attribute var title: String`,
/// `@Attribute(.unique) var isbn: String? = nil`, `@Attribute var tags: [String] = []`.
///
/// A new model keeps its values in its properties; once a context takes it (or it is related to a model that has
/// one), its values live in the store's storage and reads and writes go there (a read of a model whose row is gone
/// traps, R14). A property with options (`@Attribute(.unique)`) needs an initial value: Swift initializes such a
/// wrapper at its declaration.
@propertyWrapper
public struct Attribute<Value: AttributeStorable> {
    @usableFromInline var field: AttributeField

    /// A property with an initial value, or one an initializer sets. `originalName` and `hashModifier` are SwiftData's
    /// migration hints; GraphStore has no migrations and ignores them.
    @inlinable
    public init(wrappedValue: Value, originalName: String? = nil, hashModifier: String? = nil) {
        field = AttributeField(value: wrappedValue.attributeValue, options: AttributeOptions())
    }

    /// A property with options (`@Attribute(.unique)`) and an initial value.
    @inlinable
    public init(wrappedValue: Value, _ option: AttributeOption, _ options: AttributeOption..., originalName: String? = nil,
                hashModifier: String? = nil) {
        field = AttributeField(value: wrappedValue.attributeValue, options: AttributeOptions([option] + options))
    }

    /// A property without an initial value (its model's initializer sets it; `required init() {}` leaves it unset).
    @inlinable
    public init() {
        field = AttributeField(value: .null, options: AttributeOptions())
    }

    @available(*, unavailable, message: "an @Attribute property is declared in a PersistentModel subclass")
    public var wrappedValue: Value {
        get { fatalError("an @Attribute property is declared in a PersistentModel subclass") }
        set { fatalError("an @Attribute property is declared in a PersistentModel subclass") }
    }

    /// Reads and writes the value: in the store's storage once the model has a schema, else in the property.
    @inlinable
    public static subscript<M: PersistentModel>(_enclosingInstance model: M, wrapped wrapped: ReferenceWritableKeyPath<M, Value>,
                                                storage storage: ReferenceWritableKeyPath<M, Self>) -> Value {
        get {
            let slot = model[keyPath: storage].field.slot
            if slot >= 0 { return Value.reading(model.value(at: slot)) }
            return newModelValue(model, storage)
        }
        set {
            let slot = model[keyPath: storage].field.slot
            if slot >= 0 {
                model.setValue(newValue.attributeValue, at: slot)
            } else {
                model[keyPath: storage].field.value = newValue.attributeValue
            }
        }
    }

    /// The value a model without a schema keeps in the property (or, while the schema resolves an `inverse:` key
    /// path, the placeholder: an attribute is no inverse, and the schema says so).
    @usableFromInline
    static func newModelValue<M: PersistentModel>(_ model: M, _ storage: ReferenceWritableKeyPath<M, Self>) -> Value {
        let field = model[keyPath: storage].field
        if field.slot == AttributeField.probing {
            model[keyPath: storage].field.slot = AttributeField.probed
            return Value.reading(.null)
        }
        return Value.reading(field.value)
    }
}

/// A relationship of a model class, declared as SwiftData's are: `@Relationship var work: Work?`,
/// `@Relationship(deleteRule: .cascade, inverse: \Edition.work) var editions: [Edition] = []`.
///
/// The inverse may be declared on either side (or both, naming each other); the schema pairs them. Setting a side
/// keeps the inverse (R11) and follows R10 when one model is new and the other registered. Relationships a new
/// model's initializer sets are linked, with their inverses, when the model first has a schema: when a context
/// inserts it or a later assignment relates it. A property with arguments needs an initial value (`= nil`, `= []`).
@propertyWrapper
public struct Relationship<Value: RelationshipValue> {
    @usableFromInline var field: RelationshipField

    /// - Parameters:
    ///   - deleteRule: what deleting this model does to the models it holds here (at save, R19).
    ///   - minimumModelCount, maximumModelCount: how many a to-many must hold (validated at save; nil or 0: no limit).
    ///   - inverse: the relationship of the other model that mirrors this one (`\Edition.work`).
    ///   - originalName, hashModifier: SwiftData's migration hints, ignored.
    @inlinable
    public init(wrappedValue: Value, deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
                originalName: String? = nil, inverse: @autoclosure @escaping @Sendable () -> AnyKeyPath? = nil, hashModifier: String? = nil) {
        field = RelationshipField(pending: wrappedValue.relatedModels,
                                  declaration: RelationshipDeclaration(deleteRule: deleteRule, minimumModelCount: minimumModelCount,
                                                                       maximumModelCount: maximumModelCount, inverse: inverse))
    }

    /// A relationship without arguments or initial value: nullify, no inverse declared on this side, no limits.
    @inlinable
    public init() {
        field = RelationshipField(pending: [], declaration: RelationshipDeclaration(deleteRule: .nullify, minimumModelCount: nil, maximumModelCount: nil,
                                                                                    inverse: { nil }))
    }

    @available(*, unavailable, message: "a @Relationship property is declared in a PersistentModel subclass")
    public var wrappedValue: Value {
        get { fatalError("a @Relationship property is declared in a PersistentModel subclass") }
        set { fatalError("a @Relationship property is declared in a PersistentModel subclass") }
    }

    /// Reads the related models, or relates: a to-one is set, a to-many replaced (models not in the new value are
    /// unrelated, the others related in order).
    @inlinable
    public static subscript<M: PersistentModel>(_enclosingInstance model: M, wrapped wrapped: ReferenceWritableKeyPath<M, Value>,
                                                storage storage: ReferenceWritableKeyPath<M, Self>) -> Value {
        get {
            let slot = model[keyPath: storage].field.slot
            if slot >= 0 { return Value.relationshipValue(model.related(slot)) }
            return newModelValue(model, storage)
        }
        set {
            var slot = model[keyPath: storage].field.slot
            if slot < 0 {
                model.takeSchema(relatingTo: newValue.relatedModels)
                slot = model[keyPath: storage].field.slot
            }
            if Value.isToManyRelationship {
                model.setRelated(slot, newValue.relatedModels)
            } else {
                model.setToOne(slot, newValue.relatedModels.first)
            }
        }
    }

    /// What a model without a schema holds here: the models its initializer gave (linked later), or, while the
    /// schema resolves an `inverse:` key path, nothing.
    @usableFromInline
    static func newModelValue<M: PersistentModel>(_ model: M, _ storage: ReferenceWritableKeyPath<M, Self>) -> Value {
        let field = model[keyPath: storage].field
        if field.slot == AttributeField.probing {
            model[keyPath: storage].field.slot = AttributeField.probed
            return Value.probeValue
        }
        return Value.relationshipValue(field.pending)
    }
}

/// A stored property that is not persisted (SwiftData's `@Transient`): an ordinary property of the model object.
@propertyWrapper
public struct Transient<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

/// An option of `@Attribute`. `unique` (R7) and the validation constraints `range` (1610/1620) and `length` (1660/1670,
/// Core Data's model editor has the same) take effect; SwiftData's storage hints are accepted and change nothing here.
public enum AttributeOption: Sendable, Equatable {
    /// At most one saved row per value; an insert whose value a saved row holds takes that row over (upsert, R7).
    case unique
    /// The integer range a save accepts.
    case range(ClosedRange<Int>)
    /// The string length (or list size) a save accepts.
    case length(ClosedRange<Int>)
    /// SwiftData's storage hints: no effect in GraphStore.
    case externalStorage, preserveValueOnDeletion, ephemeral, spotlight, allowsCloudEncryption
}

// MARK: What the wrappers store

/// What an `@Attribute` stores: its only stored property, so the schema reads it at the wrapper's place in a model
/// (`ModelReflection`).
@usableFromInline
struct AttributeField {
    /// Where the value is: `new` (in `value`), the attribute's index in its entity once the model has a schema,
    /// or a mark while the schema resolves an `inverse:` key path.
    @usableFromInline var slot: Int
    /// A model without a schema's value (`.null` when unset); unused afterwards.
    @usableFromInline var value: AttributeValue
    @usableFromInline let options: AttributeOptions

    @usableFromInline static let new = -1, probing = -2, probed = -3

    @inlinable
    init(value: AttributeValue, options: AttributeOptions) {
        slot = Self.new
        self.value = value
        self.options = options
    }
}

/// What an `@Attribute`'s options declare.
@usableFromInline
struct AttributeOptions {
    var isUnique = false
    var range: ClosedRange<Int>?
    var length: ClosedRange<Int>?

    @usableFromInline
    init() {}

    @usableFromInline
    init(_ options: [AttributeOption]) {
        for option in options {
            switch option {
            case .unique: isUnique = true
            case .range(let range): self.range = range
            case .length(let length): self.length = length
            case .externalStorage, .preserveValueOnDeletion, .ephemeral, .spotlight, .allowsCloudEncryption: break
            }
        }
    }
}

/// What a `@Relationship` stores: its only stored property (see `AttributeField`).
@usableFromInline
struct RelationshipField {
    /// As `AttributeField.slot`.
    @usableFromInline var slot: Int
    /// The models a new model's initializer related here (linked when the model takes a schema).
    @usableFromInline var pending: [PersistentModel]
    /// The declaration's arguments (dropped once the model has a schema).
    @usableFromInline var declaration: RelationshipDeclaration?

    @inlinable
    init(pending: [PersistentModel], declaration: RelationshipDeclaration) {
        slot = AttributeField.new
        self.pending = pending
        self.declaration = declaration
    }
}

/// What a `@Relationship`'s arguments declare. The inverse is kept as the expression that makes its key path, made
/// only when a schema reads the declaration.
@usableFromInline
struct RelationshipDeclaration {
    var deleteRule: DeleteRule
    var minimumModelCount: Int?
    var maximumModelCount: Int?
    var inverse: @Sendable () -> AnyKeyPath?

    @usableFromInline
    init(deleteRule: DeleteRule, minimumModelCount: Int?, maximumModelCount: Int?, inverse: @escaping @Sendable () -> AnyKeyPath?) {
        self.deleteRule = deleteRule
        self.minimumModelCount = minimumModelCount
        self.maximumModelCount = maximumModelCount
        self.inverse = inverse
    }
}

// MARK: The wrappers as the schema sees them

/// An `@Attribute` wrapper type, known by its value type.
protocol DeclaredAttribute {
    static var kind: AttributeKind { get }
    static var isOptional: Bool { get }
    /// The placeholder as stored (`.null` for none).
    static var placeholder: AttributeValue { get }
}

extension Attribute: DeclaredAttribute {
    static var kind: AttributeKind { Value.attributeKind }
    static var isOptional: Bool { Value.isOptionalAttribute }
    static var placeholder: AttributeValue { Value.attributePlaceholder?.attributeValue ?? .null }
}

/// A `@Relationship` wrapper type, known by its value type.
protocol DeclaredRelationship {
    static var destination: PersistentModel.Type { get }
    static var isToMany: Bool { get }
    static var isOptional: Bool { get }
}

extension Relationship: DeclaredRelationship {
    static var destination: PersistentModel.Type { Value.relationshipDestination }
    static var isToMany: Bool { Value.isToManyRelationship }
    static var isOptional: Bool { Value.isOptionalRelationship }
}

/// A `@Transient` wrapper type.
protocol DeclaredTransient {}

extension Transient: DeclaredTransient {}
