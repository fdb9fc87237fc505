/// A failure signature a search found: its lowest failing case, shrunk once and described.
package struct FoundFailure: Sendable, Equatable {
    package var plan: SearchPlan
    /// The lowest case of the search that failed with this signature: the one shrunk.
    package var caseIndex: Int
    /// What that case consumed, and the steps it ran.
    package var original: ChoiceSequence
    package var originalSteps: Int
    /// The shrunk case, and how the shrink went.
    package var shrunk: ChoiceSequence
    package var shrink: ShrinkResult
    /// The failure as the shrunk case's record tells it (a crash names the step it died at); the lowest case's own
    /// failure when the shrunk case could not be described.
    package var failure: Failure
    /// The shrunk case as readable records (nil when it cannot be described: a property's test function, or a case
    /// that did not fail the same way when described).
    package var counterexample: CaseRecord?
    /// Cases of the search that failed with this signature: so far when reported while the search goes on
    /// (`CampaignEvent.failure`), final in the search's result.
    package var caseCount: Int
    /// Wall clock from the start of the search to the failure's report: the search until its lowest case ran (other
    /// workers searching on meanwhile), the shrinks reported before it, its own shrink and description. Not search
    /// time less shrinking: a worker's shrink overlaps the other workers' search, so the two cannot be subtracted.
    package var seconds: Double
    /// Failures of other signatures whose shrunk cases ran the same interleaving as this one's: one concurrency bug that
    /// broke several rules (a lost update that one case shows in a read and another in an invariant), reported once.
    package var alsoBroken: [SameInterleaving] = []
    /// Set on a failure whose shrunk case ran the same interleaving as an earlier one's: that failure's signature.
    package var sameInterleavingAs: FailureSignature?

    package init(plan: SearchPlan, caseIndex: Int, original: ChoiceSequence, originalSteps: Int, shrunk: ChoiceSequence,
                 shrink: ShrinkResult, failure: Failure, counterexample: CaseRecord?, caseCount: Int, seconds: Double) {
        self.plan = plan
        self.caseIndex = caseIndex
        self.original = original
        self.originalSteps = originalSteps
        self.shrunk = shrunk
        self.shrink = shrink
        self.failure = failure
        self.counterexample = counterexample
        self.caseCount = caseCount
        self.seconds = seconds
    }

    /// Whether this failure's shrunk case runs the same interleaving as `other`'s: the same configuration and the same
    /// steps up to and including the first concurrent step (its branches, schedule and cancellations), of which there
    /// is one. A shrunk case keeps what it needs to fail: steps that set the stage, the interleaving that does the
    /// damage, then what shows it — which may differ (a read here, an invariant or another step there): one bug.
    package func sharesInterleaving(with other: FoundFailure) -> Bool {
        guard let mine = counterexample, let theirs = other.counterexample, mine.config == theirs.config,
              let first = mine.steps.firstIndex(where: { $0.name == "concurrently" }),
              theirs.steps.firstIndex(where: { $0.name == "concurrently" }) == first else { return false }
        return mine.steps[...first] == theirs.steps[...first]
    }

    /// Whether a mutant's failure names a rule the mutant does not declare (a wrong verdict to explain).
    package var isMisattributed: Bool {
        guard plan.mutant != nil, !plan.declaredRules.isEmpty else { return false }
        return !plan.declaredRules.contains(failure.rule)
    }
}

/// A failure reported with an earlier one whose shrunk case ran the same interleaving (`FoundFailure.alsoBroken`).
package struct SameInterleaving: Sendable, Equatable {
    /// The failure as its own shrunk case tells it.
    package var failure: Failure
    /// Its lowest failing case, and the cases of the search that failed with its signature.
    package var caseIndex: Int
    package var caseCount: Int
}

/// A search of one target (or a property), whole or so far: the cases it ran, what they exercised, and every
/// failure signature found, in the order of its lowest failing case.
package struct SearchRun: Sendable, Equatable {
    package var plan: SearchPlan
    package var cases = 0
    package var rejected = 0
    /// Steps run by the search (not counting shrinking).
    package var steps = 0
    /// Search time: shrinking and re-running suspected cases excluded (what `--time` limits).
    package var seconds = 0.0
    /// Wall time of the whole search, shrinking and re-running suspected cases included (what the summary prints);
    /// so far, in a search still running.
    package var wallSeconds = 0.0
    /// What the cases exercised, added up.
    package var coverage = Coverage()
    /// One per signature, shrunk and described, in the order of their lowest failing case.
    package var failures: [FoundFailure] = []
    /// Crash or hang signatures whose lowest case did not fail the same way when run again: not failures of the code.
    package var unconfirmed: [FailureSignature] = []
    /// The search was stopped early (SIGINT, SIGTERM, output that cannot be written).
    package var interrupted = false

    package init(plan: SearchPlan) { self.plan = plan }

    /// Seconds left of the time limit, nil without one.
    package var secondsLeft: Double? { plan.options.timeLimit.map { Swift.max(0, $0 - seconds) } }
}
