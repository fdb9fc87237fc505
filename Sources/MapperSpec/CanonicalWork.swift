/// A work reduced to what the mapping rules talk about, with every collection in canonical order,
/// so two works compare equal exactly when the rules cannot tell them apart.
///
/// Subject tags keep their order (they must pass through unchanged, M7); volume IDs, editions (by
/// ISBN, `nil` for none) and author names are sorted multisets.
public struct CanonicalWork: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var title: String
    public var tags: [String]
    public var provider: String?
    public var volumeIDs: [String]
    public var editionISBNs: [String?]
    public var authors: [String]

    public init(title: String, tags: [String], provider: String?, volumeIDs: [String], editionISBNs: [String?], authors: [String]) {
        self.title = title
        self.tags = tags
        self.provider = provider
        self.volumeIDs = volumeIDs.sorted()
        self.editionISBNs = editionISBNs.sorted(by: CanonicalWork.isbnOrder)
        self.authors = authors.sorted()
    }

    /// `nil` (an edition without ISBN) sorts first.
    static func isbnOrder(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x < y
        }
    }

    public static func < (lhs: CanonicalWork, rhs: CanonicalWork) -> Bool {
        lhs.description < rhs.description
    }

    public var description: String {
        let editions = editionISBNs.map { $0.map { String($0.suffix(2)) } ?? "-" }
        return "\(title)\(tags.isEmpty ? "" : " \(tags)")\(provider.map { " <\($0)>" } ?? "") vols\(volumeIDs) editions\(editions) authors\(authors)"
    }
}
