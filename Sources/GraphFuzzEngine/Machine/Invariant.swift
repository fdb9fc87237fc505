/// A check over both states after every step (Hypothesis' `@invariant`), under one rule: its closure returns
/// nil while the invariant holds, or a message saying what broke (the failure is the rule's, kind
/// `.invariant`). With `when`, the check runs, and counts in coverage, only in states of the model where it
/// decides something.
public struct Invariant<M: StateMachine> {
    public let rule: String
    /// The states of the model where the check decides something (nil: all); elsewhere it is skipped.
    @usableFromInline let applies: ((M.Model) -> Bool)?
    @usableFromInline let check: (M.Model, M.System) -> Failure?

    /// - Parameters:
    ///   - rule: the rule the invariant decides, named by its failures and counted by coverage.
    ///   - when: the states of the model where the invariant is checked (default: all).
    ///   - check: nil while the invariant holds, else what broke.
    @inlinable
    public init(_ rule: String, when applies: ((M.Model) -> Bool)? = nil, _ check: @escaping (M.Model, M.System) -> String?) {
        self.rule = rule
        self.applies = applies
        self.check = { model, system in check(model, system).map { Failure(rule: rule, kind: .invariant, message: $0) } }
    }
}
