import GraphFuzzEngine
import GraphSpec

/// The app's work off the main context: the background actor's refresh of a work's title (B8), in context 1, and the
/// main actor's store steps beside it, each predicted as if it ran alone, in one go.
extension GraphModel {
    /// B8: the refresh as it runs after its await, in one job of context 1: the work is fetched by identifier
    /// (G16); gone, nothing changes; else its title is set (G20) and `Library.save()` saves context 1 (B8 credited
    /// beside the save's rules), observed with the work's row alone and without the reused numbers (G27): the caller
    /// does not see the state just before the actor's save.
    public mutating func refreshTitle(_ id: SpecID?, title: SpecValue) -> Prediction<GraphObservation> {
        guard let id, let o = fetchByID(id, 1) else { return Prediction(.notFound, rule: BooksRules.backgroundByIdentifier) }
        if let trap = setValue(o, BooksEntities.workTitle, title) {
            crash()
            return Prediction(.trap(trap.name.rawValue), rule: BooksRules.backgroundByIdentifier)
        }
        var saved = predict(.save(context: 1)) { $0.librarySave($1) }
        saved.value = saved.value.keepingRow(rowName(id), numbers: false)
        return saved.part("", rule: BooksRules.backgroundByIdentifier)
    }

    /// Store steps of the main actor run in one job (a delete or an edit of `work`, then a save), each save
    /// `Library.save()`: the last step's observation with the work's row alone, or the first trap.
    public mutating func inOneGo(_ commands: [GraphCommand], observing work: Ref) -> Prediction<GraphObservation> {
        var last = Prediction(GraphObservation.none, rule: GraphRules.savedSnapshot)
        for command in commands {
            last = predict(command) { $0.librarySave($1) }
            if last.value.isTrap { return last }
        }
        if let id = objects[refs[work.index]].id { last.value = last.value.keepingRow(rowName(id)) }
        return last
    }
}

extension GraphObservation {
    /// A concurrent branch's observation: its saved state holds the row of the work it is about, nothing else, so that
    /// another branch's writes (a fault there) are not charged to it; without the reused numbers (G27) when `numbers`
    /// is false.
    public func keepingRow(_ name: ObjectName, numbers: Bool = true) -> GraphObservation {
        guard let state = savedState else { return self }
        return with(SavedState(rows: state.rows.filter { $0.name == name }, damagedCopies: state.damagedCopies,
                               reusedNumbers: numbers ? state.reusedNumbers : nil))
    }
}
