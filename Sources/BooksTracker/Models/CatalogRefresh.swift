package import FaultPoints
import GraphStore

/// Background work in the shape of SwiftData's `@ModelActor`: an actor that owns a context over the app's container
/// and whose methods callers await. Models never leave it: callers pass `PersistentIdentifier`s, and after every
/// suspension it fetches by identifier what it changes, so a work another context deleted meanwhile is found missing
/// rather than touched (seed 000, "4. Concurrent Deletions": on-demand fetching, each access checks the object
/// still exists).
public actor CatalogRefresh: ModelActor {
    public let modelContext: ModelContext
    private let policy: LibraryPolicy

    /// `@ModelActor`'s initializer: a context of the actor's own over `modelContainer`.
    public init(modelContainer: ModelContainer) {
        self.init(modelContext: ModelContext(modelContainer), policy: LibraryPolicy())
    }

    /// An actor over `modelContext`, which no other code uses while the actor lives.
    package init(modelContext: ModelContext, policy: LibraryPolicy) {
        self.modelContext = modelContext
        self.policy = policy
    }

    /// Gives the work `id` names the title the catalogue returns: awaits `lookUp`, then, in one job, fetches the work
    /// by identifier, sets its title and saves with `Library.save()`. Returns false, changing nothing, when the work
    /// is gone by then.
    public func refreshTitle(of id: PersistentIdentifier, lookUp: @Sendable () async -> String) async throws(LibrarySaveError) -> Bool {
        let held = policy.faults.selects(.backgroundStaleModel) ? work(id) : nil
        let title = await lookUp()
        guard let work = held ?? work(id) else { return false }
        work.title = title
        try Library(context: modelContext, policy: policy).save()
        return true
    }

    /// The work of `id` as a fetch by identifier finds it (its saved row, R16; a pending insert of this context).
    private func work(_ id: PersistentIdentifier) -> Work? { modelContext.fetch(.identifier(id)).first as? Work }
}

extension Fault<LibraryPolicy> {
    /// Mutant `background-stale-model`: the refresh fetches the work before it awaits the catalogue and changes that
    /// model afterwards, whatever another context saved meanwhile (shipped: fetched by identifier after the await).
    package static var backgroundStaleModel: Self { Self() }
}
