/// What kind of wrong a failure is. Together with the rule id it forms the failure's signature.
@usableFromInline package enum FailureKind: String, Sendable, Codable, CaseIterable {
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
    /// The actions of a concurrent step observed what no order of them explains (the specification,
    /// run in every order that respects which finished before which started, predicts something else).
    case linearizability
    /// A concurrent step could not go on: nothing could run and some of its tasks had not finished.
    case deadlock
    /// A concurrent step ran the scheduler's whole job limit without finishing (tasks that keep
    /// waking each other).
    case livelock
}

/// A test case's failure: which rule broke, how, and what was expected and what came.
@usableFromInline package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    @usableFromInline package var rule: String
    @usableFromInline package var kind: FailureKind
    @usableFromInline package var message: String
    /// Extra identity for the signature, e.g. a signal plus the first line of a trap message.
    @usableFromInline package var detail: String
    /// The 0-based step at which it happened, when it happened at a step.
    @usableFromInline package var step: Int?

    @usableFromInline package init(rule: String, kind: FailureKind, message: String, detail: String = "", step: Int? = nil) {
        self.rule = rule
        self.kind = kind
        self.message = message
        self.detail = detail
        self.step = step
    }

    /// The failure's identity. An observation no order of a concurrent step explains is the same bug as a
    /// lone step's mismatch under the same rule (the rule's prediction did not allow what came): so the
    /// shrinker may take a concurrent failure to fewer branches, down to one step that shows it alone.
    @usableFromInline package var signature: FailureSignature {
        FailureSignature(rule: rule, kind: kind == .linearizability ? .mismatch : kind, detail: detail)
    }
    @usableFromInline package var description: String { "[\(rule) \(kind.rawValue)] \(message)" }
}

/// Failures with equal signatures are the same bug. The shrinker only accepts a candidate that
/// fails with the original signature, so it never slips to another bug.
@usableFromInline package struct FailureSignature: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline package var rule: String
    @usableFromInline package var kind: FailureKind
    @usableFromInline package var detail: String

    @usableFromInline package init(rule: String, kind: FailureKind, detail: String = "") {
        self.rule = rule
        self.kind = kind
        self.detail = detail
    }

    @usableFromInline package var description: String { detail.isEmpty ? "\(rule)/\(kind.rawValue)" : "\(rule)/\(kind.rawValue)/\(detail)" }
}

/// The outcome of one test case.
@usableFromInline package enum Outcome: Equatable, Sendable {
    case pass
    /// The case did not meet its assumptions (a filter ran dry, a precondition failed); discarded.
    case rejected
    case fail(Failure)
    /// The harness itself could not do a step (`HarnessFault`): no verdict on the code under test.
    case harnessFault(HarnessFault)

    @usableFromInline package var failure: Failure? {
        if case .fail(let failure) = self { return failure }
        return nil
    }

    /// The harness's own fault, when the case ended in one.
    @usableFromInline package var harnessFault: HarnessFault? {
        if case .harnessFault(let fault) = self { return fault }
        return nil
    }
}
