import GraphStore

/// A published edition of a work.
public final class Edition: PersistentModel {
    public enum Field {
        public static let isbn = 0, publisher = 1, publicationDate = 2, pageCount = 3, format = 4
        public static let coverImageURL = 5, editionTitle = 6, primaryProvider = 7
        public static let work = 0, userLibraryEntries = 1
    }

    /// The CloudKit-compatible declaration: `userLibraryEntries` nullifies. The local configuration replaces it
    /// with `.deny` (seed 004, Phase 4); see `BooksTrackerSchema`.
    public static let declaration = EntitySchema(
        name: "Edition",
        attributes: [
            AttributeSchema("isbn", .string, optional: true),
            AttributeSchema("publisher", .string, optional: true),
            AttributeSchema("publicationDate", .string, optional: true),
            AttributeSchema("pageCount", .int, optional: true, range: 1...50000),
            AttributeSchema("format", .string, default: .string(EditionFormat.hardcover.rawValue)),
            AttributeSchema("coverImageURL", .string, optional: true),
            AttributeSchema("editionTitle", .string, optional: true),
            AttributeSchema("primaryProvider", .string, optional: true),
        ],
        relationships: [
            RelationshipSchema("work", to: "Work", toMany: false, inverse: "editions", deleteRule: .nullify),
            RelationshipSchema("userLibraryEntries", to: "UserLibraryEntry", toMany: true, inverse: "edition", deleteRule: .nullify),
        ])

    override public class var schemaEntity: EntitySchema { declaration }

    /// An edition without relationships (the seed's `work:` parameter is gone: relate after insert).
    public init(isbn: String? = nil, publisher: String? = nil, publicationDate: String? = nil, pageCount: Int? = nil,
                format: EditionFormat = .hardcover, coverImageURL: String? = nil, editionTitle: String? = nil,
                primaryProvider: String? = nil) {
        // The values the properties' setters store, set at once (a new model's setter only stores its value).
        func text(_ value: String?) -> AttributeValue { value.map(AttributeValue.string) ?? .null }
        var values = Self.declaration.defaultValues
        values[Field.isbn] = text(isbn)
        values[Field.publisher] = text(publisher)
        values[Field.publicationDate] = text(publicationDate)
        values[Field.pageCount] = pageCount.map(AttributeValue.int) ?? .null
        values[Field.format] = .string(format.rawValue)
        values[Field.coverImageURL] = text(coverImageURL)
        values[Field.editionTitle] = text(editionTitle)
        values[Field.primaryProvider] = text(primaryProvider)
        super.init()
        setInitialValues(values)
    }

    public required init(backingData: BackingData) { super.init(backingData: backingData) }

    private func string(_ index: Int) -> String? { value(at: index).stringValue }
    private func set(_ index: Int, _ value: String?) { setValue(value.map(AttributeValue.string) ?? .null, at: index) }

    public var isbn: String? { get { string(Field.isbn) } set { set(Field.isbn, newValue) } }
    public var publisher: String? { get { string(Field.publisher) } set { set(Field.publisher, newValue) } }
    public var publicationDate: String? { get { string(Field.publicationDate) } set { set(Field.publicationDate, newValue) } }
    public var coverImageURL: String? { get { string(Field.coverImageURL) } set { set(Field.coverImageURL, newValue) } }
    public var editionTitle: String? { get { string(Field.editionTitle) } set { set(Field.editionTitle, newValue) } }
    public var primaryProvider: String? { get { string(Field.primaryProvider) } set { set(Field.primaryProvider, newValue) } }
    public var pageCount: Int? {
        get { value(at: Field.pageCount).intValue }
        set { setValue(newValue.map(AttributeValue.int) ?? .null, at: Field.pageCount) }
    }
    public var format: EditionFormat {
        get { value(at: Field.format).stringValue.flatMap(EditionFormat.init(rawValue:)) ?? .hardcover }
        set { setValue(.string(newValue.rawValue), at: Field.format) }
    }

    public var work: Work? {
        get { related(Field.work).first.map { $0 as! Work } }
        set { setToOne(Field.work, newValue) }
    }
    public var userLibraryEntries: [UserLibraryEntry] {
        get { related(Field.userLibraryEntries).map { $0 as! UserLibraryEntry } }
        set { setRelated(Field.userLibraryEntries, newValue) }
    }
}
