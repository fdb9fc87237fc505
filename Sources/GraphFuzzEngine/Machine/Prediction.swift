/// What the specification predicts an action observes, and the rule that decides it.
public struct Prediction<Observation: Equatable>: Equatable {
    /// The predicted observation.
    public var value: Observation
    /// Other observations the rule also allows (a concurrent step may see either of two values).
    public var alternatives: [Observation]
    /// The rule id that determines the observation; a mismatch is reported against it.
    public var rule: String
    /// Other rules that decided a part of the observation (a save's cascade, its deny check): coverage
    /// credits them beside `rule`. A mismatch is still reported against `rule` unless the machine's
    /// `compare` finds the part that differs.
    public var alsoDecided: [String]

    @inlinable
    public init(_ value: Observation, rule: String, alternatives: [Observation] = [], alsoDecided: [String] = []) {
        self.value = value
        self.rule = rule
        self.alternatives = alternatives
        self.alsoDecided = alsoDecided
    }

    @inlinable
    public func allows(_ observed: Observation) -> Bool {
        observed == value || alternatives.contains(observed)
    }
}
