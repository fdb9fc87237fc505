import GraphStore

/// The reader's entry for a work: wishlist (no edition) or owned (an edition).
public final class UserLibraryEntry: PersistentModel {
    @Attribute public var readingStatus: ReadingStatus = .toRead
    @Attribute(.range(1...5)) public var rating: Int? = nil
    @Attribute(.length(0...2000)) public var notes: String? = nil

    /// Required in the local configuration (see `BooksTrackerSchema`).
    @Relationship public var work: Work? = nil
    @Relationship public var edition: Edition? = nil

    /// An entry without relationships (seed 004, Task 1.1): insert it, then set `work` and `edition`.
    public init(readingStatus: ReadingStatus = .toRead) {
        self.readingStatus = readingStatus
    }

    public required init() {}

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
