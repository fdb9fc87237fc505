/// The small pools of strings the specification's responses draw from. Small on purpose: repeats
/// (shared ISBNs, repeated volume IDs, authors of several works) are what the rules are about.
/// Index 0 is the simplest value of each pool (what shrinking moves toward).
public enum MapperVocabulary {
    public static let titles = ["Dune", "Emma", "Beloved", "Ulysses"]
    /// Backend-normalised genre tags, as the backend sends them (mixed case is deliberate).
    public static let tags = ["Fiction", "Science Fiction", "sci-fi & fantasy", "History", "YOUNG ADULT"]
    public static let providers = ["openlibrary", "google-books", "isbndb"]
    public static let volumeIDs = ["vol-A", "vol-B", "vol-C", "vol-D", "vol-E"]
    public static let isbns = ["9780000000001", "9780000000002", "9780000000003", "9780000000004"]
    /// More names than a work may have authors (`maxAuthors`), so a response can exceed the schema's limit.
    public static let authors = ["Ann Leckie", "Ted Chiang", "N. K. Jemisin", "Octavia E. Butler", "Ursula K. Le Guin"]
    /// Edition titles and publishers: editions of one work differ in them.
    public static let editionTitles = ["Deluxe Edition", "Annotated Edition"]
    public static let publishers = ["Ace", "Penguin Classics"]
    /// Page counts as backends send them: ordinary ones, the schema's bounds, and 0 (a backend's "unknown"),
    /// which is outside the schema's range.
    public static let pageCounts = [320, 1, 50000, 0]

    /// The schema's limits the mapped graph must respect to save (M14): `Work.authors` holds at most three
    /// authors (maxCount, Core Data 1590) and `Edition.pageCount` lies in 1...50000 (1610/1620).
    public static let maxAuthors = 3
    public static let pageCountRange = 1...50000

    /// The backend id of the response's work at `index` (`w1`, `w2`, …); an edition or author may
    /// name an id no work in the response has.
    public static func workID(_ index: Int) -> String {
        index >= 0 && index < workIDs.count ? workIDs[index] : "w\(index + 1)"
    }

    /// `w1` … `w9`: every id a generated response names, made once.
    private static let workIDs = (1...9).map { "w\($0)" }
}
