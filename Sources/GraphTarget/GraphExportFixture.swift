import BooksTracker
import GraphStore

/// What every exported graph regression test (`graph-fuzz export-tests`) sets up, so each holds only its
/// case's steps: a container with the BooksTracker schema (traps recorded, the case's store behaviour), two
/// contexts with a library each, and the models and identifiers the steps made, by reference number (`refs[0]`
/// is `v1`). Steps call the production API through it (`app.libraries[0].save()`); a relaunch step reopens
/// `app.container` itself. Used only by exported tests.
public final class GraphExportFixture {
    public let configuration: BooksConfiguration
    /// The store; a relaunch step reopens it.
    public var container: ModelContainer
    public var contexts: [ModelContext]
    public var libraries: [Library]
    /// The models the steps made or looked up, `refs[0]` being `v1`.
    public var refs: [PersistentModel?] = []
    /// The identifiers `holdID` steps kept.
    public var held: [PersistentIdentifier?] = []

    public init(configuration: BooksConfiguration, behavior: StoreBehavior) {
        self.configuration = configuration
        container = BooksTrackerSchema.container(configuration, store: ModelConfiguration(trapPolicy: .record, behavior: behavior))
        contexts = [ModelContext(container), ModelContext(container)]
        libraries = contexts.map { [configuration] in Library(context: $0, policy: LibraryPolicy(configuration: configuration)) }
    }
}
