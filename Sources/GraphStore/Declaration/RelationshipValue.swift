/// A Swift type a `@Relationship` property can hold: a model (`Author`: a required to-one), an optional model
/// (`Work?`: to-one), an array of models (`[Edition]`: to-many) or an optional array (`[Edition]?`: to-many, read
/// as `[]` when empty, R11). A to-many relationship holds zero models or more whether its array is optional or not;
/// `minimumModelCount` makes it require some.
public protocol RelationshipValue {
    /// The model class at the other end.
    static var relationshipDestination: PersistentModel.Type { get }
    static var isToManyRelationship: Bool { get }
    /// Whether the relationship may hold no model.
    static var isOptionalRelationship: Bool { get }
    /// The value of a relationship holding `models`.
    static func relationshipValue(_ models: [PersistentModel]) -> Self
    /// What a read returns while the schema resolves an `inverse:` key path (no model is read).
    static var probeValue: Self { get }
    /// The models this value holds.
    var relatedModels: [PersistentModel] { get }
}

extension PersistentModel: RelationshipValue {
    public static var relationshipDestination: PersistentModel.Type { self }
    public static var isToManyRelationship: Bool { false }
    public static var isOptionalRelationship: Bool { false }
    /// The model; a required to-one that holds none stops the process (declare it optional if it may be empty).
    public static func relationshipValue(_ models: [PersistentModel]) -> Self {
        guard let model = models.first else { preconditionFailure("a required \(self) relationship holds no model") }
        return model as! Self
    }
    public static var probeValue: Self { self.init() }
    public var relatedModels: [PersistentModel] { [self] }
}

extension Array: RelationshipValue where Element: PersistentModel {
    public static var relationshipDestination: PersistentModel.Type { Element.self }
    public static var isToManyRelationship: Bool { true }
    public static var isOptionalRelationship: Bool { true }
    @inlinable
    public static func relationshipValue(_ models: [PersistentModel]) -> [Element] { models.map { unsafeDowncast($0, to: Element.self) } }
    public static var probeValue: [Element] { [] }
    public var relatedModels: [PersistentModel] { self }
}

extension Optional: RelationshipValue where Wrapped: RelationshipValue {
    public static var relationshipDestination: PersistentModel.Type { Wrapped.relationshipDestination }
    public static var isToManyRelationship: Bool { Wrapped.isToManyRelationship }
    public static var isOptionalRelationship: Bool { true }
    /// Nil for an empty to-one; an empty array for an empty to-many (R11: an optional to-many reads `[]`).
    @inlinable
    public static func relationshipValue(_ models: [PersistentModel]) -> Wrapped? {
        models.isEmpty && !Wrapped.isToManyRelationship ? nil : Wrapped.relationshipValue(models)
    }
    public static var probeValue: Wrapped? { nil }
    public var relatedModels: [PersistentModel] { self?.relatedModels ?? [] }
}
