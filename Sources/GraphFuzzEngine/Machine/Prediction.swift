/// What the specification predicts an action observes, and the rule that decides it.
public struct Prediction<Observation: Equatable>: Equatable {
    /// The predicted observation.
    public var value: Observation
    /// Other observations the rule also allows (a concurrent step may see either of two values).
    public var alternatives: [Observation]
    /// The rule id that determines the observation; a mismatch is reported against it.
    public var rule: String

    @inlinable
    public init(_ value: Observation, rule: String, alternatives: [Observation] = []) {
        self.value = value
        self.rule = rule
        self.alternatives = alternatives
    }

    @inlinable
    public func allows(_ observed: Observation) -> Bool {
        observed == value || alternatives.contains(observed)
    }
}
