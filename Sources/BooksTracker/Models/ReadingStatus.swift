/// Where a book stands in the reader's library. `wishlist` means wanted but not owned.
public enum ReadingStatus: String, Sendable, CaseIterable {
    case wishlist, toRead, reading, read, onHold, dnf
}

/// The physical or digital form of an edition.
public enum EditionFormat: String, Sendable, CaseIterable {
    case hardcover, paperback, ebook, audiobook, massMarket
}
