package import FaultPoints
import GraphStore

/// A work (the abstract book), with its authors, editions and the reader's library entries, and what the
/// backend says about it (seed 002): subject tags, whether it is synthetic, its primary provider and its
/// Google Books volume IDs.
public final class Work: PersistentModel {
    /// Attribute and relationship indexes, in declaration order.
    public enum Field {
        public static let title = 0, firstPublicationYear = 1, originalLanguage = 2
        public static let subjectTags = 3, synthetic = 4, primaryProvider = 5, googleBooksVolumeIDs = 6
        public static let authors = 0, editions = 1, userLibraryEntries = 2
    }

    /// The declaration: deleting a work cascades to its editions and library entries (seed 004). The mapping
    /// attributes (seed 002) are optional or defaulted, so the CloudKit configuration still mirrors (R24).
    public static let declaration = EntitySchema(
        name: "Work",
        attributes: [
            AttributeSchema("title", .string, default: .string(""), length: 1...500),
            AttributeSchema("firstPublicationYear", .int, optional: true, range: 1...3000),
            AttributeSchema("originalLanguage", .string, optional: true),
            AttributeSchema("subjectTags", .strings, default: .strings([])),
            AttributeSchema("synthetic", .bool, default: .bool(false)),
            AttributeSchema("primaryProvider", .string, optional: true),
            AttributeSchema("googleBooksVolumeIDs", .strings, default: .strings([])),
        ],
        relationships: [
            RelationshipSchema("authors", to: "Author", toMany: true, inverse: "works", deleteRule: .nullify, maxCount: 3),
            RelationshipSchema("editions", to: "Edition", toMany: true, inverse: "work", deleteRule: .cascade),
            RelationshipSchema("userLibraryEntries", to: "UserLibraryEntry", toMany: true, inverse: "work", deleteRule: .cascade),
        ])

    override public class var schemaEntity: EntitySchema { declaration }

    /// A work without relationships (initializers take none: relate after insert).
    public init(title: String = "", firstPublicationYear: Int? = nil, originalLanguage: String? = nil,
                subjectTags: [String] = [], synthetic: Bool = false, primaryProvider: String? = nil,
                googleBooksVolumeIDs: [String] = []) {
        // The values the properties' setters store, set at once (a new model's setter only stores its value).
        var values = Self.declaration.defaultValues
        values[Field.title] = .string(title)
        values[Field.firstPublicationYear] = firstPublicationYear.map(AttributeValue.int) ?? .null
        values[Field.originalLanguage] = originalLanguage.map(AttributeValue.string) ?? .null
        values[Field.subjectTags] = .strings(subjectTags)
        values[Field.synthetic] = .bool(synthetic)
        values[Field.primaryProvider] = primaryProvider.map(AttributeValue.string) ?? .null
        values[Field.googleBooksVolumeIDs] = .strings(googleBooksVolumeIDs)
        super.init()
        setInitialValues(values)
    }

    public required init(backingData: BackingData) { super.init(backingData: backingData) }

    public var title: String {
        get { value(at: Field.title).stringValue ?? "" }
        set { setValue(.string(newValue), at: Field.title) }
    }
    public var firstPublicationYear: Int? {
        get { value(at: Field.firstPublicationYear).intValue }
        set { setValue(newValue.map(AttributeValue.int) ?? .null, at: Field.firstPublicationYear) }
    }
    public var originalLanguage: String? {
        get { value(at: Field.originalLanguage).stringValue }
        set { setValue(newValue.map(AttributeValue.string) ?? .null, at: Field.originalLanguage) }
    }

    /// Genre tags exactly as the backend sent them (it normalises them; seed 002 US-3).
    public var subjectTags: [String] {
        get { value(at: Field.subjectTags).stringsValue ?? [] }
        set { setValue(.strings(newValue), at: Field.subjectTags) }
    }
    /// True when the backend made the work up from Google Books volumes.
    public var synthetic: Bool {
        get { value(at: Field.synthetic).boolValue ?? false }
        set { setValue(.bool(newValue), at: Field.synthetic) }
    }
    /// The provider the backend took the work from (provenance, seed 002 Solution 4).
    public var primaryProvider: String? {
        get { value(at: Field.primaryProvider).stringValue }
        set { setValue(newValue.map(AttributeValue.string) ?? .null, at: Field.primaryProvider) }
    }
    /// Google Books volume IDs of this work, in the order they were added.
    public var googleBooksVolumeIDs: [String] {
        get { value(at: Field.googleBooksVolumeIDs).stringsValue ?? [] }
        set { setValue(.strings(newValue), at: Field.googleBooksVolumeIDs) }
    }

    public var authors: [Author] {
        get { related(Field.authors).map { $0 as! Author } }
        set { setRelated(Field.authors, newValue) }
    }
    public var editions: [Edition] {
        get { related(Field.editions).map { $0 as! Edition } }
        set { setRelated(Field.editions, newValue) }
    }
    public var userLibraryEntries: [UserLibraryEntry] {
        get { related(Field.userLibraryEntries).map { $0 as! UserLibraryEntry } }
        set { setRelated(Field.userLibraryEntries, newValue) }
    }

    /// The reader's entry for this work: an owned entry first, else a wishlist entry (seed 004, Phase 3).
    public var userEntry: UserLibraryEntry? { userEntry(faults: .shipped) }

    /// The reader's entry for this work under a library policy's faults.
    package func userEntry(faults: Faults<LibraryPolicy>) -> UserLibraryEntry? {
        let entries = userLibraryEntries
        if faults.selects(.firstUserEntry) { return entries.first }
        if let owned = entries.first(where: { $0.isOwned }) { return owned }
        return entries.first(where: { $0.isWishlistItem })
    }
}

extension Fault<LibraryPolicy> {
    /// Mutant `user-entry-first`: seed 004's `Work.userEntry` before Phase 3, the first entry, wishlist or not (B3).
    package static var firstUserEntry: Self { Self() }
}
