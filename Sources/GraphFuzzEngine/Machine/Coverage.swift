/// What one or more cases exercised: per action how often it ran and how often its precondition
/// held or failed, per rule id how many predictions and invariant checks it decided. Cases add up
/// with `merge`. Dictionaries are keyed by name; print them sorted (`sortedPredictions`, …).
@usableFromInline package struct Coverage: Sendable, Equatable {
    @usableFromInline package struct ActionCount: Sendable, Equatable {
        @usableFromInline package var name: String
        /// Steps that ran this action.
        @usableFromInline package var ran = 0
        /// Times its precondition was checked (the action was enabled) and held.
        @usableFromInline package var held = 0
        /// Times its precondition was checked and failed.
        @usableFromInline package var failed = 0

        @usableFromInline package init(name: String, ran: Int = 0, held: Int = 0, failed: Int = 0) {
            self.name = name
            self.ran = ran
            self.held = held
            self.failed = failed
        }
    }

    /// The machine's actions, in its order.
    @usableFromInline package var actions: [ActionCount]
    /// Rule id → predictions it decided.
    @usableFromInline package var predictions: [String: Int]
    /// Rule id → invariant checks made under it.
    @usableFromInline package var invariants: [String: Int]
    /// Cases counted.
    @usableFromInline package var cases: Int

    @usableFromInline package init(actions: [ActionCount] = [], predictions: [String: Int] = [:], invariants: [String: Int] = [:], cases: Int = 0) {
        self.actions = actions
        self.predictions = predictions
        self.invariants = invariants
        self.cases = cases
    }

    /// Adds `other`'s counts (actions matched by name, new ones appended in order).
    @usableFromInline package mutating func merge(_ other: Coverage) {
        for count in other.actions {
            if let i = actions.firstIndex(where: { $0.name == count.name }) {
                actions[i].ran += count.ran
                actions[i].held += count.held
                actions[i].failed += count.failed
            } else {
                actions.append(count)
            }
        }
        predictions.merge(other.predictions, uniquingKeysWith: +)
        invariants.merge(other.invariants, uniquingKeysWith: +)
        cases += other.cases
    }

    /// Predictions per rule id, sorted by id.
    @usableFromInline package var sortedPredictions: [(rule: String, count: Int)] {
        predictions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Invariant checks per rule id, sorted by id.
    @usableFromInline package var sortedInvariants: [(rule: String, count: Int)] {
        invariants.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
