import GraphStore

/// A published edition of a work. `userLibraryEntries` nullifies here (the CloudKit-compatible declaration); the
/// local configuration makes it `.deny` (seed 004, Phase 4; see `BooksTrackerSchema`).
public final class Edition: PersistentModel {
    /// The page counts a save accepts (1610 above, 1620 below).
    public static let pageCountRange = 1...50000

    @Attribute public var isbn: String? = nil
    @Attribute public var publisher: String? = nil
    @Attribute public var publicationDate: String? = nil
    @Attribute(.range(Edition.pageCountRange)) public var pageCount: Int? = nil
    @Attribute public var format: EditionFormat = .hardcover
    @Attribute public var coverImageURL: String? = nil
    @Attribute public var editionTitle: String? = nil
    @Attribute public var primaryProvider: String? = nil

    @Relationship public var work: Work? = nil
    @Relationship(inverse: \UserLibraryEntry.edition) public var userLibraryEntries: [UserLibraryEntry] = []

    /// An edition without relationships (the seed's `work:` parameter is gone: relate after insert).
    public init(isbn: String? = nil, publisher: String? = nil, publicationDate: String? = nil, pageCount: Int? = nil,
                format: EditionFormat = .hardcover, coverImageURL: String? = nil, editionTitle: String? = nil,
                primaryProvider: String? = nil) {
        self.isbn = isbn
        self.publisher = publisher
        self.publicationDate = publicationDate
        self.pageCount = pageCount
        self.format = format
        self.coverImageURL = coverImageURL
        self.editionTitle = editionTitle
        self.primaryProvider = primaryProvider
    }

    public required init() {}
}
