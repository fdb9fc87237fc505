import GraphStore

/// The reader's entry for a work: wishlist (no edition) or owned (an edition).
public final class UserLibraryEntry: PersistentModel {
    public enum Field {
        public static let readingStatus = 0, rating = 1, notes = 2
        public static let work = 0, edition = 1
    }

    /// The CloudKit-compatible declaration (every relationship optional). The local configuration makes `work`
    /// required; see `BooksTrackerSchema`.
    public static let declaration = EntitySchema(
        name: "UserLibraryEntry",
        attributes: [
            AttributeSchema("readingStatus", .string, default: .string(ReadingStatus.toRead.rawValue)),
            AttributeSchema("rating", .int, optional: true, range: 1...5),
            AttributeSchema("notes", .string, optional: true, length: 0...2000),
        ],
        relationships: [
            RelationshipSchema("work", to: "Work", toMany: false, inverse: "userLibraryEntries", deleteRule: .nullify),
            RelationshipSchema("edition", to: "Edition", toMany: false, inverse: "userLibraryEntries", deleteRule: .nullify),
        ])

    override public class var schemaEntity: EntitySchema { declaration }

    /// An entry without relationships (seed 004, Task 1.1): insert it, then set `work` and `edition`.
    public init(readingStatus: ReadingStatus = .toRead) {
        super.init()
        self.readingStatus = readingStatus
    }

    public required init(backingData: BackingData) { super.init(backingData: backingData) }

    public var readingStatus: ReadingStatus {
        get { value(at: Field.readingStatus).stringValue.flatMap(ReadingStatus.init(rawValue:)) ?? .toRead }
        set { setValue(.string(newValue.rawValue), at: Field.readingStatus) }
    }
    public var rating: Int? {
        get { value(at: Field.rating).intValue }
        set { setValue(newValue.map(AttributeValue.int) ?? .null, at: Field.rating) }
    }
    public var notes: String? {
        get { value(at: Field.notes).stringValue }
        set { setValue(newValue.map(AttributeValue.string) ?? .null, at: Field.notes) }
    }
    public var work: Work? {
        get { related(Field.work).first.map { $0 as! Work } }
        set { setToOne(Field.work, newValue) }
    }
    public var edition: Edition? {
        get { related(Field.edition).first.map { $0 as! Edition } }
        set { setToOne(Field.edition, newValue) }
    }

    /// Owned: not on the wishlist and holding an edition.
    public var isOwned: Bool { readingStatus != .wishlist && edition != nil }
    /// On the wishlist.
    public var isWishlistItem: Bool { readingStatus == .wishlist }

    /// Seed 004, Task 5.1: a wishlist entry has no edition; every entry has a work.
    public func validate() throws(EntryValidationError) {
        if readingStatus == .wishlist && edition != nil { throw .wishlistCannotHaveEdition }
        guard work != nil else { throw .missingWorkRelationship }
    }

    /// Creates a wishlist entry for an inserted `work`: inserts the entry, then relates it (seed 004, Task 1.2).
    public static func createWishlistEntry(for work: Work, context: ModelContext) -> UserLibraryEntry {
        Library(context: context).createWishlistEntry(for: work)
    }

    /// Creates an owned entry for an inserted `work` and `edition`: inserts the entry, then relates it.
    public static func createOwnedEntry(for work: Work, edition: Edition, status: ReadingStatus = .toRead,
                                        context: ModelContext) -> UserLibraryEntry {
        Library(context: context).createOwnedEntry(for: work, edition: edition, status: status)
    }
}

/// Why `UserLibraryEntry.validate()` refuses an entry.
public enum EntryValidationError: String, Error, Sendable, CaseIterable, Comparable {
    case wishlistCannotHaveEdition
    case missingWorkRelationship

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
