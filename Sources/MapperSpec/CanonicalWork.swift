/// A work reduced to what the mapping rules talk about, with every collection in canonical order,
/// so two works compare equal exactly when the rules cannot tell them apart.
///
/// Subject tags keep their order (they must pass through unchanged, M7); volume IDs, editions (by
/// ISBN, `nil` for none), the editions' providers and author names are sorted multisets.
public struct CanonicalWork: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var title: String
    public var tags: [String]
    public var provider: String?
    public var volumeIDs: [String]
    public var editionISBNs: [String?]
    public var authors: [String]
    /// One line per edition with its ISBN, title, publisher and page count (`editionDetail`), sorted: editions that
    /// differ in more than their ISBN (M5, M14).
    public var editionDetails: [String]
    /// Whether the work is synthetic, and each edition's provider (M8: provenance as its own DTO names it).
    public var synthetic: Bool
    public var editionProviders: [String?]

    public init(title: String, tags: [String], provider: String?, volumeIDs: [String], editionISBNs: [String?], authors: [String],
                editionDetails: [String] = [], synthetic: Bool = false, editionProviders: [String?] = []) {
        self.title = title
        self.tags = tags
        self.provider = provider
        self.synthetic = synthetic
        self.editionProviders = editionProviders.count < 2 ? editionProviders : editionProviders.sorted(by: CanonicalWork.isbnOrder)
        // A list of zero or one element is already sorted: keep it (no copy).
        self.volumeIDs = volumeIDs.count < 2 ? volumeIDs : volumeIDs.sorted()
        self.editionISBNs = editionISBNs.count < 2 ? editionISBNs : editionISBNs.sorted(by: CanonicalWork.isbnOrder)
        self.authors = authors.count < 2 ? authors : authors.sorted()
        self.editionDetails = editionDetails.count < 2 ? editionDetails : editionDetails.sorted()
    }

    /// The line of one edition: `isbn/title/publisher/pages`, `-` for a missing value.
    public static func editionDetail(isbn: String?, title: String?, publisher: String?, pageCount: Int?) -> String {
        "\(isbn ?? "-")/\(title ?? "-")/\(publisher ?? "-")/\(pageCount.map(String.init) ?? "-")"
    }

    /// `nil` (an edition without ISBN, a work without provider) sorts first.
    static func isbnOrder(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x < y
        }
    }

    /// Field by field (title, tags, provider with nil first, volume IDs, editions, authors, edition details, synthetic,
    /// edition providers): a total order
    /// consistent with `==`, for sorting works into a canonical order without building strings.
    public static func < (lhs: CanonicalWork, rhs: CanonicalWork) -> Bool {
        if lhs.title != rhs.title { return lhs.title < rhs.title }
        if lhs.tags != rhs.tags { return lhs.tags.lexicographicallyPrecedes(rhs.tags) }
        if lhs.provider != rhs.provider { return isbnOrder(lhs.provider, rhs.provider) }
        if lhs.volumeIDs != rhs.volumeIDs { return lhs.volumeIDs.lexicographicallyPrecedes(rhs.volumeIDs) }
        if lhs.editionISBNs != rhs.editionISBNs { return lhs.editionISBNs.lexicographicallyPrecedes(rhs.editionISBNs, by: isbnOrder) }
        if lhs.authors != rhs.authors { return lhs.authors.lexicographicallyPrecedes(rhs.authors) }
        if lhs.editionDetails != rhs.editionDetails { return lhs.editionDetails.lexicographicallyPrecedes(rhs.editionDetails) }
        if lhs.synthetic != rhs.synthetic { return !lhs.synthetic }
        return lhs.editionProviders.lexicographicallyPrecedes(rhs.editionProviders, by: isbnOrder)
    }

    public var description: String {
        let editions = editionISBNs.map { $0.map { String($0.suffix(2)) } ?? "-" }
        let details = editionDetails.allSatisfy { $0.hasSuffix("/-/-/-") } ? "" : " details\(editionDetails)"
        let providers = editionProviders.allSatisfy { $0 == nil } ? "" : " edition providers\(editionProviders.map { $0 ?? "-" })"
        return "\(title)\(synthetic ? " synthetic" : "")\(tags.isEmpty ? "" : " \(tags)")\(provider.map { " <\($0)>" } ?? "") vols\(volumeIDs) "
            + "editions\(editions) authors\(authors)\(details)\(providers)"
    }
}
