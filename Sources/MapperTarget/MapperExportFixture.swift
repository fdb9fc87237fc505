import BooksTracker
import GraphStore

/// What every exported mapper regression test (`graph-fuzz export-tests`) sets up, so each holds only its
/// case's steps: a container with the BooksTracker CloudKit schema (traps recorded, the case's store
/// behaviour), the mapper's context, the mapper, the works the last map step returned, and the works the
/// steps named by reference number (`refs[0]` is `v1`). Steps call the production API through it
/// (`app.works = app.mapper.mapToWorks(…, context: app.context)`); a relaunch or new-context step replaces
/// `app.container` or `app.context` itself. Used only by exported tests.
public final class MapperExportFixture {
    /// The store; a relaunch step reopens it.
    public var container: ModelContainer
    /// The mapper's context; a later step may replace it with a fresh one.
    public var context: ModelContext
    public let mapper: DTOMapper
    /// What the last map step returned.
    public var works: [Work] = []
    /// The works the steps named, `refs[0]` being `v1`.
    public var refs: [Work] = []

    public init(behavior: StoreBehavior, mapper: DTOMapper = DTOMapper()) {
        container = BooksTrackerSchema.container(.cloudKit, store: ModelConfiguration(trapPolicy: .record, behavior: behavior))
        context = ModelContext(container)
        self.mapper = mapper
    }
}

/// A mapped work as an exported test compares it: what the mapper stored, each list in a stable order. Built
/// from a `Work` (`StoredWork(app.works[0])`) or written out as the specification predicts it.
public struct StoredWork: Equatable, CustomStringConvertible {
    public var title: String
    public var subjectTags: [String]
    public var primaryProvider: String?
    /// Sorted.
    public var googleBooksVolumeIDs: [String]
    /// The editions' ISBNs, sorted (a missing ISBN first).
    public var editionISBNs: [String?]
    /// The authors' names, sorted.
    public var authors: [String]
    /// The editions as `ISBN/title/publisher/pages` (`-` for none), sorted; empty unless compared (M5, M14).
    public var editionDetails: [String]

    public init(title: String, subjectTags: [String], primaryProvider: String?, googleBooksVolumeIDs: [String],
                editionISBNs: [String?], authors: [String], editionDetails: [String] = []) {
        self.title = title
        self.subjectTags = subjectTags
        self.primaryProvider = primaryProvider
        self.googleBooksVolumeIDs = googleBooksVolumeIDs
        self.editionISBNs = editionISBNs
        self.authors = authors
        self.editionDetails = editionDetails
    }

    /// What `work` holds; its editions' details only `withEditionDetails`.
    public init(_ work: Work, withEditionDetails: Bool = false) {
        self.init(title: work.title, subjectTags: work.subjectTags, primaryProvider: work.primaryProvider,
                  googleBooksVolumeIDs: work.googleBooksVolumeIDs.sorted(),
                  editionISBNs: work.editions.map(\.isbn).sorted { ($0 ?? "") < ($1 ?? "") },
                  authors: work.authors.map(\.name).sorted(),
                  editionDetails: withEditionDetails ? work.editions.map(Self.details).sorted() : [])
    }

    static func details(_ edition: Edition) -> String {
        "\(edition.isbn ?? "-")/\(edition.editionTitle ?? "-")/\(edition.publisher ?? "-")/\(edition.pageCount.map(String.init) ?? "-")"
    }

    public var description: String {
        "\(title) tags \(subjectTags) provider \(primaryProvider ?? "nil") volumes \(googleBooksVolumeIDs) ISBNs \(editionISBNs.map { $0 ?? "nil" }) "
            + "authors \(authors)" + (editionDetails.isEmpty ? "" : " editions \(editionDetails)")
    }
}
