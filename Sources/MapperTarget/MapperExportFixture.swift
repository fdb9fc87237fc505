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
