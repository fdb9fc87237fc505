/// A check over both states after every step (Hypothesis' `@invariant`), under one rule: its closure returns
/// nil while the invariant holds, or a message saying what broke (the failure is the rule's, kind
/// `.invariant`). With `when`, the check runs, and counts in coverage, only in states of the model where it
/// decides something.
public struct Invariant<M: StateMachine> {
    public let rule: String
    /// The rule the check decides in a state, for coverage; nil when it decides nothing there (and is skipped).
    @usableFromInline let decidedBy: ((M.Model) -> String?)?
    @usableFromInline let check: (M.Model, M.System) -> Failure?

    /// - Parameters:
    ///   - rule: the rule the invariant decides, named by its failures and counted by coverage.
    ///   - when: the states of the model where the invariant is checked (default: all).
    ///   - check: nil while the invariant holds, else what broke.
    @inlinable
    public init(_ rule: String, when applies: ((M.Model) -> Bool)? = nil, _ check: @escaping (M.Model, M.System) -> String?) {
        self.rule = rule
        decidedBy = applies.map { applies in { applies($0) ? rule : nil } }
        self.check = { model, system in check(model, system).map { Failure(rule: rule, kind: .invariant, message: $0) } }
    }

    /// An invariant whose failure names a rule of its own choosing, and whose counted rule depends on the
    /// state (`decidedBy`; nil: skipped): for a target that still chooses the rule itself.
    @inlinable
    package init(_ rule: String, decidedBy: @escaping (M.Model) -> String?, failure check: @escaping (M.Model, M.System) -> Failure?) {
        self.rule = rule
        self.decidedBy = decidedBy
        self.check = check
    }
}
