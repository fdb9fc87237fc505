/// Limits on one shrink: attempts (candidate runs), a stall budget, and optionally wall-clock seconds.
package struct ShrinkBudget: Sendable, Equatable {
    package var maxAttempts: Int
    /// Wall-clock seconds, none by default: a limit on time makes the shrunk case depend on the machine's speed
    /// and load, and one seed must give one report on any machine. The attempt and stall budgets are counts.
    package var maxSeconds: Double?
    /// Candidate runs in a row without an improvement after which the shrink stops as finished
    /// (Hypothesis' `max_stall`): the last rounds of a shrink mostly confirm a fixed point.
    package var maxStall: Int

    package init(maxAttempts: Int = 20_000, maxSeconds: Double? = nil, maxStall: Int = 1000) {
        self.maxAttempts = maxAttempts
        self.maxSeconds = maxSeconds
        self.maxStall = maxStall
    }
}

/// What a shrink produced.
package struct ShrinkResult: Sendable, Equatable {
    /// The simplest failing sequence found (shortlex-minimal among those tried).
    package var sequence: ChoiceSequence
    /// Candidate runs made.
    package var attempts: Int
    /// Accepted candidates, each a strictly simpler failing sequence.
    package var improvements: Int
    /// True when the attempt or time budget, not a fixed point or a stall, ended the shrink.
    package var budgetExhausted: Bool
    /// True when the stall budget ended the shrink (`maxStall` runs without an improvement).
    package var stalled: Bool
    /// True when the shrink was stopped (SIGINT, SIGTERM) before it ended: `sequence` is the best so far, not a
    /// fixed point.
    package var interrupted: Bool
    /// What each pass did, in the order the passes were given.
    package var passes: [ShrinkPassStats]
    /// Candidates not run because an earlier run had consumed the same choices (`ChoiceTree`).
    package var skipped: Int

    package init(sequence: ChoiceSequence, attempts: Int, improvements: Int, budgetExhausted: Bool, stalled: Bool = false,
                interrupted: Bool = false, passes: [ShrinkPassStats], skipped: Int = 0) {
        self.interrupted = interrupted
        self.sequence = sequence
        self.attempts = attempts
        self.improvements = improvements
        self.budgetExhausted = budgetExhausted
        self.stalled = stalled
        self.passes = passes
        self.skipped = skipped
    }
}

/// What one pass did during a shrink.
package struct ShrinkPassStats: Sendable, Equatable {
    /// The pass's name (`ShrinkPass.name`).
    package var pass: String
    /// Times the pass was run.
    package var runs = 0
    /// Candidates it ran.
    package var attempts = 0
    /// Candidates it made that were accepted.
    package var improvements = 0
    /// Choices its accepted candidates removed from the sequence.
    package var choicesRemoved = 0

    package init(pass: String) { self.pass = pass }
}
