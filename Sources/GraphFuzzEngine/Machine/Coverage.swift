/// What one or more cases exercised: per action how often it ran and how often its precondition
/// held or failed, per rule id how many predictions and invariant checks it decided. Cases add up
/// with `merge`. Dictionaries are keyed by name; print them sorted (`sortedPredictions`, …).
public struct Coverage: Sendable, Equatable {
    public struct ActionCount: Sendable, Equatable {
        public var name: String
        /// Steps that ran this action.
        public var ran = 0
        /// Times its precondition was checked (the action was enabled) and held.
        public var held = 0
        /// Times its precondition was checked and failed.
        public var failed = 0

        public init(name: String, ran: Int = 0, held: Int = 0, failed: Int = 0) {
            self.name = name
            self.ran = ran
            self.held = held
            self.failed = failed
        }
    }

    /// The machine's actions, in its order.
    public var actions: [ActionCount]
    /// Rule id → predictions it decided.
    public var predictions: [String: Int]
    /// Rule id → invariant checks made under it.
    public var invariants: [String: Int]
    /// Cases counted.
    public var cases: Int

    public init(actions: [ActionCount] = [], predictions: [String: Int] = [:], invariants: [String: Int] = [:], cases: Int = 0) {
        self.actions = actions
        self.predictions = predictions
        self.invariants = invariants
        self.cases = cases
    }

    /// Adds `other`'s counts (actions matched by name, new ones appended in order).
    public mutating func merge(_ other: Coverage) {
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
    public var sortedPredictions: [(rule: String, count: Int)] {
        predictions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Invariant checks per rule id, sorted by id.
    public var sortedInvariants: [(rule: String, count: Int)] {
        invariants.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
