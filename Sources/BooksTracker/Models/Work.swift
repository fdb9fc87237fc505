package import FaultPoints
import GraphStore

/// A work (the abstract book), with its authors, editions and the reader's library entries, and what the
/// backend says about it (seed 002): subject tags, whether it is synthetic, its primary provider and its
/// Google Books volume IDs. Deleting a work cascades to its editions and library entries (seed 004). The mapping
/// attributes are optional or defaulted, so the CloudKit configuration still mirrors (R24).
public final class Work: PersistentModel {
    /// How many authors a work may hold (a save with more fails, 1590).
    public static let maximumAuthors = 3

    @Attribute(.length(1...500)) public var title: String = ""
    @Attribute(.range(1...3000)) public var firstPublicationYear: Int? = nil
    @Attribute public var originalLanguage: String? = nil
    /// Genre tags exactly as the backend sent them (it normalises them; seed 002 US-3).
    @Attribute public var subjectTags: [String] = []
    /// True when the backend made the work up from Google Books volumes.
    @Attribute public var synthetic: Bool = false
    /// The provider the backend took the work from (provenance, seed 002 Solution 4).
    @Attribute public var primaryProvider: String? = nil
    /// Google Books volume IDs of this work, in the order they were added.
    @Attribute public var googleBooksVolumeIDs: [String] = []

    @Relationship(maximumModelCount: Work.maximumAuthors, inverse: \Author.works) public var authors: [Author] = []
    @Relationship(deleteRule: .cascade, inverse: \Edition.work) public var editions: [Edition] = []
    @Relationship(deleteRule: .cascade, inverse: \UserLibraryEntry.work) public var userLibraryEntries: [UserLibraryEntry] = []

    /// A work without relationships (initializers take none: relate after insert).
    public init(title: String = "", firstPublicationYear: Int? = nil, originalLanguage: String? = nil,
                subjectTags: [String] = [], synthetic: Bool = false, primaryProvider: String? = nil,
                googleBooksVolumeIDs: [String] = []) {
        self.title = title
        self.firstPublicationYear = firstPublicationYear
        self.originalLanguage = originalLanguage
        self.subjectTags = subjectTags
        self.synthetic = synthetic
        self.primaryProvider = primaryProvider
        self.googleBooksVolumeIDs = googleBooksVolumeIDs
    }

    public required init() {}

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
