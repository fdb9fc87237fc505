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
    public static let authors = ["Ann Leckie", "Ted Chiang", "N. K. Jemisin"]

    /// The backend id of the response's work at `index` (`w1`, `w2`, …); an edition or author may
    /// name an id no work in the response has.
    public static func workID(_ index: Int) -> String {
        index >= 0 && index < workIDs.count ? workIDs[index] : "w\(index + 1)"
    }

    /// `w1` … `w9`: every id a generated response names, made once.
    private static let workIDs = (1...9).map { "w\($0)" }
}
