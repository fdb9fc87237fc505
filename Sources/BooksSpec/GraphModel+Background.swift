import GraphFuzzEngine
import GraphSpec

/// The app's work off the main context: the background actor's refresh of a work's title (B8), in context 1, and the
/// main actor's store steps beside it, each predicted as if it ran alone, in one go.
extension GraphModel {
    /// B8: the refresh as it runs after its await, in one job of context 1: the work is fetched by identifier
    /// (G16); gone, nothing changes; else its title is set (G20) and `Library.save()` saves context 1 (B8 credited
    /// beside the save's rules), observed without the reused numbers (G27): the caller does not see the state just
    /// before the actor's save.
    public mutating func refreshTitle(_ id: SpecID?, title: SpecValue) -> Prediction<GraphObservation> {
        guard let id, let o = fetchByID(id, 1) else { return Prediction(.notFound, rule: BooksRules.backgroundByIdentifier) }
        if let trap = setValue(o, BooksEntities.workTitle, title) {
            crash()
            return Prediction(.trap(trap.name.rawValue), rule: BooksRules.backgroundByIdentifier)
        }
        var saved = predict(.save(context: 1)) { $0.librarySave($1) }
        saved.value = saved.value.withoutReusedNumbers
        return saved.part("", rule: BooksRules.backgroundByIdentifier)
    }

    /// B9: the refresh cancelled during its await, stopped: nothing changes, and context 1 holds the changes earlier
    /// steps left there, if any (G19's pending changes).
    public func cancelledRefresh() -> Prediction<GraphObservation> {
        Prediction(.cancelled(changes: objects.contains { $0.context == 1 && $0.hasChanges }), rule: BooksRules.cancelledRefresh)
    }

    /// Store steps of the main actor run in one job (a delete or an edit of a work, then a save), each save
    /// `Library.save()`: the last step's observation, or the first trap.
    public mutating func inOneGo(_ commands: [GraphCommand]) -> Prediction<GraphObservation> {
        var last = Prediction(GraphObservation.none, rule: GraphRules.savedSnapshot)
        for command in commands {
            last = predict(command) { $0.librarySave($1) }
            if last.value.isTrap { return last }
        }
        return last
    }
}

extension GraphObservation {
    /// The observation without the rows a save numbered at or below a number saved before (G27), which an actor's
    /// caller cannot tell: it does not see the state just before the actor's save.
    public var withoutReusedNumbers: GraphObservation {
        guard var state = savedState else { return self }
        state.reusedNumbers = nil
        return with(state)
    }
}
