import GraphStore

/// Where a book stands in the reader's library. `wishlist` means wanted but not owned.
public enum ReadingStatus: String, Sendable, CaseIterable, AttributeStorable {
    case wishlist, toRead, reading, read, onHold, dnf

    /// What a stored value that names no status reads as.
    public static var attributePlaceholder: ReadingStatus? { .toRead }
}

/// The physical or digital form of an edition.
public enum EditionFormat: String, Sendable, CaseIterable, AttributeStorable {
    case hardcover, paperback, ebook, audiobook, massMarket
}
