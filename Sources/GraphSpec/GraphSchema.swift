/// The type of an attribute's values.
public enum SpecValueKind: String, Sendable, CaseIterable {
    case bool, int, string
    /// A list of strings, one value (R31).
    case strings
}

/// An attribute as the specification sees it: what the store must enforce for it (R24, R25).
public struct SpecAttribute: Sendable, Equatable {
    public var name: String
    public var kind: SpecValueKind
    public var optional: Bool
    public var defaultValue: SpecValue
    /// Allowed integers (1610 above, 1620 below).
    public var range: ClosedRange<Int>?
    /// Allowed string length or list size (1660 longer, 1670 shorter).
    public var length: ClosedRange<Int>?
    public var unique: Bool

    public init(name: String, kind: SpecValueKind = .string, optional: Bool, defaultValue: SpecValue, range: ClosedRange<Int>? = nil,
                length: ClosedRange<Int>? = nil, unique: Bool = false) {
        self.name = name
        self.kind = kind
        self.optional = optional
        self.defaultValue = defaultValue
        self.range = range
        self.length = length
        self.unique = unique
    }
}

public enum SpecDeleteRule: String, Sendable, CaseIterable { case nullify, cascade, deny, noAction }

/// A relationship as the specification sees it.
public struct SpecRelationship: Sendable, Equatable {
    public var name: String
    /// Index of the destination entity.
    public var destination: Int
    public var toMany: Bool
    /// Index of the inverse in the destination's relationships (nil: none declared).
    public var inverse: Int?
    public var deleteRule: SpecDeleteRule
    public var optional: Bool
    /// Count limits of a to-many (1580 too few, 1590 too many).
    public var minCount: Int?
    public var maxCount: Int?
    /// An app rule that owns this relationship's delete rule (the app chose it to keep one of its own promises):
    /// a difference the delete rule decides is reported under it instead of the store's G9 or G11.
    public var rule: String?

    public init(name: String, destination: Int, toMany: Bool, inverse: Int?, deleteRule: SpecDeleteRule, optional: Bool,
                minCount: Int? = nil, maxCount: Int? = nil, rule: String? = nil) {
        self.name = name
        self.destination = destination
        self.toMany = toMany
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.optional = optional
        self.minCount = minCount
        self.maxCount = maxCount
        self.rule = rule
    }
}

public struct SpecEntity: Sendable, Equatable {
    public var name: String
    public var attributes: [SpecAttribute]
    public var relationships: [SpecRelationship]

    public init(name: String, attributes: [SpecAttribute], relationships: [SpecRelationship]) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// The values a step gives one attribute, simplest first, with the weights they are drawn with.
public struct ValuePool: Sendable, Equatable {
    public var attribute: Int
    public var values: [SpecValue]
    public var weights: [UInt32]

    public init(attribute: Int, values: [SpecValue], weights: [UInt32]) {
        self.attribute = attribute
        self.values = values
        self.weights = weights
    }
}

/// A schema the object-graph rules are decided over: its entities, and the values the harness creates and sets
/// (derived from the constraints, or picked by an app). Pure values.
public struct GraphSchema: Sendable, Equatable {
    /// A name for reports (`local`, `cloudKit`, `todo`).
    public var name: String
    public let entities: [SpecEntity]
    /// Per entity: the attribute a create step sets and its three values (valid, invalid, valid), nil when the
    /// entity has no attribute to set.
    public let createPools: [ValuePool?]
    /// Per entity: the attributes a set step sets, each with its values.
    public let settable: [[ValuePool]]
    /// Per entity: the weights of its settable slots.
    public let slotWeights: [[UInt32]]
    /// Per entity: how often a create step makes one.
    public let createWeights: [UInt32]
    /// Per entity: its unique attributes, each with the three values a create step gives it (G28).
    public let uniquePools: [[ValuePool]]
    /// By the label of its part (`1600 Entity.key`), the rule whose check decides a deny relationship's issues at save:
    /// the app rule that chose the deny, else G11.
    public let denyRules: [String: String]

    /// - Parameters:
    ///   - createPools: per entity, the create step's attribute and values (default: derived, `derivedCreatePool`).
    ///   - handPicked: per entity, slots an app picked for the set step (their pools come first, weighted more;
    ///     each is extended by the attribute's boundaries); every other attribute with boundaries follows.
    ///   - createWeights: per entity, how often a create step makes one (default: each as often).
    public init(name: String, entities: [SpecEntity], createPools: [ValuePool?]? = nil, handPicked: [[ValuePool]] = [],
                createWeights: [UInt32]? = nil) {
        self.name = name
        self.entities = entities
        self.createWeights = createWeights ?? entities.map { _ in 2 }
        self.createPools = createPools ?? entities.map(Self.derivedCreatePool)
        self.uniquePools = entities.map { entity in entity.attributes.indices.filter { entity.attributes[$0].unique }.map { Self.uniquePool(entity, $0) } }
        var denyRules: [String: String] = [:]
        for entity in entities {
            for relationship in entity.relationships where relationship.deleteRule == .deny {
                denyRules[GraphObservation.denyLabel(entity.name, relationship.name)] = relationship.rule ?? GraphRules.denyDelete
            }
        }
        self.denyRules = denyRules
        var settable: [[ValuePool]] = [], slotWeights: [[UInt32]] = []
        for (e, entity) in entities.enumerated() {
            let picked = e < handPicked.count ? handPicked[e] : []
            var slots = picked.map { slot in
                let attribute = entity.attributes[slot.attribute]
                let values = Self.appending(Self.boundaries(attribute), to: slot.values)
                let weights = values.indices.map { $0 < slot.weights.count ? slot.weights[$0] : Self.allows(attribute, values[$0]) ? 2 : 1 }
                return ValuePool(attribute: slot.attribute, values: values, weights: weights)
            }
            for (a, attribute) in entity.attributes.enumerated() where !picked.contains(where: { $0.attribute == a }) && !attribute.unique {
                let values = Self.boundaries(attribute)
                guard !values.isEmpty else { continue }
                slots.append(ValuePool(attribute: a, values: values, weights: values.map { Self.allows(attribute, $0) ? 2 : 1 }))
            }
            settable.append(slots)
            slotWeights.append(slots.indices.map { $0 < picked.count ? 4 : 2 })
        }
        self.settable = settable
        self.slotWeights = slotWeights
    }

    public var names: [String] { entities.map(\.name) }

    public func entityIndex(named name: String) -> Int? { entities.firstIndex { $0.name == name } }

    /// The most slots any entity has, and the longest pool: the ranges the set step draws from.
    /// (Closures, not key paths: a key path's projection costs more than the whole count, and generation reads these
    /// at every step.)
    public var settableSlotCount: Int { max(1, settable.map { $0.count }.max() ?? 1) }
    public var settablePoolCount: Int { max(1, settable.joined().map { $0.values.count }.max() ?? 1) }
    /// The most relationships, and attributes and relationships, an entity has.
    public var relationshipCount: Int { entities.map { $0.relationships.count }.max() ?? 0 }
    public var propertyCount: Int { entities.map { $0.attributes.count + $0.relationships.count }.max() ?? 0 }

    // MARK: Values from the constraints

    /// Whether `value` is within `attribute`'s range and length (nil only when it is optional).
    public static func allows(_ attribute: SpecAttribute, _ value: SpecValue) -> Bool {
        switch value {
        case .null: return attribute.optional
        case .int(let n): return attribute.range?.contains(n) ?? true
        case .string(let text): return attribute.length?.contains(text.count) ?? true
        case .strings(let list): return attribute.length?.contains(list.count) ?? true
        case .bool: return true
        }
    }

    /// The boundary values of `attribute`, from its description alone: nil when it is optional, each bound of its
    /// range and the bound ± 1, the shortest and longest string (or list) its length allows and one beyond each,
    /// and for an optional attribute without constraints one value of its kind (so it is sometimes set).
    public static func boundaries(_ attribute: SpecAttribute) -> [SpecValue] {
        var values: [SpecValue] = attribute.optional ? [.null] : []
        if let range = attribute.range {
            let (low, high) = (range.lowerBound, range.upperBound)
            values += [low - 1, low, low + 1, high - 1, high, high + 1].map(SpecValue.int)
        }
        if let length = attribute.length {
            let (low, high) = (length.lowerBound, length.upperBound)
            let counts = [low - 1, low, high, high + 1].filter { $0 >= 0 }
            values += counts.map { attribute.kind == .strings ? .strings(Array(repeating: "x", count: $0)) : .string(String(repeating: "x", count: $0)) }
        }
        if attribute.range == nil && attribute.length == nil && attribute.optional { values.append(simple(attribute.kind)) }
        return appending(values, to: [])
    }

    /// A valid value of `kind` other than a default (for pools).
    static func simple(_ kind: SpecValueKind) -> SpecValue {
        switch kind {
        case .bool: return .bool(true)
        case .int: return .int(1)
        case .string: return .string("x")
        case .strings: return .strings(["x"])
        }
    }

    /// A create step's pool for `entity`: its first attribute that is not unique, at a valid value, a value beyond
    /// its constraints (or another valid one) and a second valid value.
    public static func derivedCreatePool(_ entity: SpecEntity) -> ValuePool? {
        guard let a = entity.attributes.firstIndex(where: { !$0.unique }) else { return nil }
        let attribute = entity.attributes[a]
        let candidates = appending(boundaries(attribute) + [attribute.defaultValue, simple(attribute.kind)], to: [])
        let valid = candidates.filter { allows(attribute, $0) && $0 != .null }
        let invalid = candidates.filter { !allows(attribute, $0) }
        let first = valid.first ?? attribute.defaultValue
        let second = valid.dropFirst().first ?? first
        return ValuePool(attribute: a, values: [first, invalid.first ?? second, second], weights: [6, 2, 2])
    }

    /// A create step's values for unique attribute `a`: its default (nil when optional), then two valid values —
    /// few, so that models often share one with a saved row (upsert) or with another insert.
    static func uniquePool(_ entity: SpecEntity, _ a: Int) -> ValuePool {
        let attribute = entity.attributes[a]
        let candidates = appending(boundaries(attribute) + [simple(attribute.kind), attribute.kind == .bool ? .bool(false) : attribute.defaultValue], to: [])
        let valid = candidates.filter { allows(attribute, $0) && $0 != .null && $0 != attribute.defaultValue }
        let first = valid.first ?? simple(attribute.kind)
        return ValuePool(attribute: a, values: [attribute.defaultValue, first, valid.dropFirst().first ?? first], weights: [4, 4, 2])
    }

    /// Whether a relationship declares no inverse (G9's dangling pairs, G11's deny without inverse).
    public var hasInverseless: Bool { entities.contains { $0.relationships.contains { $0.inverse == nil } } }

    /// Whether a deny relationship declares no inverse (G11's deny without inverse).
    public var hasInverselessDeny: Bool { entities.contains { $0.relationships.contains { $0.inverse == nil && $0.deleteRule == .deny } } }

    /// Whether a deny or cascade rule declares no inverse (G11's deny, G9's cascade, each acting at save).
    public var hasInverselessSaveRule: Bool {
        entities.contains { $0.relationships.contains { $0.inverse == nil && ($0.deleteRule == .deny || $0.deleteRule == .cascade) } }
    }

    /// Whether a to-one relationship has a to-one inverse (G7's one-to-one pairs).
    public var hasOneToOne: Bool {
        entities.contains { entity in
            entity.relationships.contains { relationship in
                !relationship.toMany && relationship.inverse.map { !entities[relationship.destination].relationships[$0].toMany } == true
            }
        }
    }

    /// Whether an entity declares a unique attribute (G28).
    public var hasUniqueAttributes: Bool { uniquePools.contains { !$0.isEmpty } }

    static func appending(_ values: [SpecValue], to pool: [SpecValue]) -> [SpecValue] {
        values.reduce(into: pool) { pool, value in if !pool.contains(value) { pool.append(value) } }
    }

    // MARK: CloudKit (G21)

    /// G21 (R23, R24): every deny rule, required or inverse-less relationship, unique attribute and required
    /// attribute without default, as "kind: Entity.property", sorted by entity, property, kind.
    public var cloudKitViolations: [String] {
        var result: [(String, String, String)] = []
        for entity in entities {
            for a in entity.attributes {
                if a.unique { result.append((entity.name, a.name, "uniqueAttribute")) }
                if !a.optional && a.defaultValue == .null { result.append((entity.name, a.name, "requiredAttributeWithoutDefault")) }
            }
            for r in entity.relationships {
                if r.deleteRule == .deny { result.append((entity.name, r.name, "denyDeleteRule")) }
                if !r.optional { result.append((entity.name, r.name, "requiredRelationship")) }
                if r.inverse == nil { result.append((entity.name, r.name, "relationshipWithoutInverse")) }
            }
        }
        return result.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map { "\($0.2): \($0.0).\($0.1)" }
    }
}
