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
    /// by identifier, sets its title and saves with `Library.save()`. Changes nothing when the work is gone by then
    /// (`.gone`), or when the calling task was cancelled during the await (`.cancelled`: a view that went away no longer
    /// wants the title): it decides that before it touches the work, so a cancelled refresh leaves no unsaved change in
    /// the actor's context for its next save to write.
    public func refreshTitle(of id: PersistentIdentifier, lookUp: @Sendable () async -> String) async throws(LibrarySaveError) -> RefreshOutcome {
        let held = policy.faults.selects(.backgroundStaleModel) ? work(id) : nil
        let title = await lookUp()
        let checksLate = policy.faults.selects(.cancelledRefreshLeavesChange)
        if !checksLate && Task.isCancelled { return .cancelled }
        guard let work = held ?? work(id) else { return .gone }
        work.title = title
        if checksLate && Task.isCancelled { return .cancelled }
        try Library(context: modelContext, policy: policy).save()
        return .refreshed
    }

    /// The work of `id` as a fetch by identifier finds it (its saved row, R16; a pending insert of this context).
    private func work(_ id: PersistentIdentifier) -> Work? { modelContext.fetch(.identifier(id)).first as? Work }
}

/// What a background refresh did.
public enum RefreshOutcome: Sendable, Equatable {
    /// The work got the title, and the actor's context was saved.
    case refreshed
    /// The work was gone when the catalogue answered: nothing changed.
    case gone
    /// The calling task was cancelled while it awaited the catalogue: nothing changed.
    case cancelled
}

extension Fault<LibraryPolicy> {
    /// Mutant `cancelled-refresh-leaves-change`: the refresh checks for cancellation after it set the title and before
    /// it saves, so a refresh cancelled during its await leaves the new title unsaved in the actor's context, where the
    /// actor's next save writes it (shipped: checked before it touches the work).
    package static var cancelledRefreshLeavesChange: Self { Self() }

    /// Mutant `background-stale-model`: the refresh fetches the work before it awaits the catalogue and changes that
    /// model afterwards, whatever another context saved meanwhile (shipped: fetched by identifier after the await).
    package static var backgroundStaleModel: Self { Self() }
}
