/// What kind of wrong a failure is. Together with the rule id it forms the failure's signature.
public enum FailureKind: String, Sendable, Codable, CaseIterable {
    /// The system observed something other than what the specification predicts.
    case mismatch
    /// An invariant over the specification and system states broke after a step.
    case invariant
    /// The system reported a crash-class fault (a store trap recorded instead of crashing).
    case trap
    /// The system threw an error nobody expected.
    case thrown
    /// A worker process died of a signal or exited abnormally.
    case crash
    /// A case did not finish in time.
    case hang
}

/// A test case's failure: which rule broke, how, and what was expected and what came.
public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    public var rule: String
    public var kind: FailureKind
    public var message: String
    /// Extra identity for the signature, e.g. a signal plus the first line of a trap message.
    public var detail: String
    /// The 0-based step at which it happened, when it happened at a step.
    public var step: Int?

    public init(rule: String, kind: FailureKind, message: String, detail: String = "", step: Int? = nil) {
        self.rule = rule
        self.kind = kind
        self.message = message
        self.detail = detail
        self.step = step
    }

    public var signature: FailureSignature { FailureSignature(rule: rule, kind: kind, detail: detail) }
    public var description: String { "[\(rule) \(kind.rawValue)] \(message)" }
}

/// Failures with equal signatures are the same bug. The shrinker only accepts a candidate that
/// fails with the original signature, so it never slips to another bug.
public struct FailureSignature: Hashable, Sendable, CustomStringConvertible {
    public var rule: String
    public var kind: FailureKind
    public var detail: String

    public init(rule: String, kind: FailureKind, detail: String = "") {
        self.rule = rule
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? "\(rule)/\(kind.rawValue)" : "\(rule)/\(kind.rawValue)/\(detail)" }
}

/// The outcome of one test case.
public enum Outcome: Equatable, Sendable {
    case pass
    /// The case did not meet its assumptions (a filter ran dry, a precondition failed); discarded.
    case rejected
    case fail(Failure)
    /// The harness itself could not do a step (`HarnessFault`): no verdict on the code under test.
    case harnessFault(HarnessFault)

    public var failure: Failure? {
        if case .fail(let failure) = self { return failure }
        return nil
    }

    /// The harness's own fault, when the case ended in one.
    public var harnessFault: HarnessFault? {
        if case .harnessFault(let fault) = self { return fault }
        return nil
    }
}
