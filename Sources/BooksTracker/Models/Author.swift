import GraphStore

/// An author of works.
public final class Author: PersistentModel {
    public enum Field {
        public static let name = 0, nationality = 1
        public static let works = 0
    }

    public static let declaration = EntitySchema(
        name: "Author",
        attributes: [
            AttributeSchema("name", .string, default: .string(""), length: 1...200),
            AttributeSchema("nationality", .string, optional: true),
        ],
        relationships: [
            RelationshipSchema("works", to: "Work", toMany: true, inverse: "authors", deleteRule: .nullify),
        ])

    override public class var schemaEntity: EntitySchema { declaration }

    public init(name: String = "", nationality: String? = nil) {
        // The values the properties' setters store, set at once (a new model's setter only stores its value).
        var values = Self.declaration.defaultValues
        values[Field.name] = .string(name)
        values[Field.nationality] = nationality.map(AttributeValue.string) ?? .null
        super.init()
        setInitialValues(values)
    }

    public required init(backingData: BackingData) { super.init(backingData: backingData) }

    public var name: String {
        get { value(at: Field.name).stringValue ?? "" }
        set { setValue(.string(newValue), at: Field.name) }
    }
    public var nationality: String? {
        get { value(at: Field.nationality).stringValue }
        set { setValue(newValue.map(AttributeValue.string) ?? .null, at: Field.nationality) }
    }
    public var works: [Work] {
        get { related(Field.works).map { $0 as! Work } }
        set { setRelated(Field.works, newValue) }
    }
}
