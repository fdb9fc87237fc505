/// Limits on one shrink: attempts (candidate runs), wall-clock seconds, and a stall budget.
public struct ShrinkBudget: Sendable, Equatable {
    public var maxAttempts: Int
    public var maxSeconds: Double
    /// Candidate runs in a row without an improvement after which the shrink stops as finished
    /// (Hypothesis' `max_stall`): the last rounds of a shrink mostly confirm a fixed point.
    public var maxStall: Int

    public init(maxAttempts: Int = 20_000, maxSeconds: Double = 60, maxStall: Int = 1000) {
        self.maxAttempts = maxAttempts
        self.maxSeconds = maxSeconds
        self.maxStall = maxStall
    }
}

/// What a shrink produced.
public struct ShrinkResult: Sendable, Equatable {
    /// The simplest failing sequence found (shortlex-minimal among those tried).
    public var sequence: ChoiceSequence
    /// Candidate runs made.
    public var attempts: Int
    /// Accepted candidates, each a strictly simpler failing sequence.
    public var improvements: Int
    /// True when the attempt or time budget, not a fixed point or a stall, ended the shrink.
    public var budgetExhausted: Bool
    /// True when the stall budget ended the shrink (`maxStall` runs without an improvement).
    public var stalled: Bool
    /// What each pass did, in the order the passes were given.
    public var passes: [ShrinkPassStats]
    /// Candidates not run because an earlier run had consumed the same choices (`ChoiceTree`).
    public var skipped: Int

    public init(sequence: ChoiceSequence, attempts: Int, improvements: Int, budgetExhausted: Bool, stalled: Bool = false,
                passes: [ShrinkPassStats], skipped: Int = 0) {
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
public struct ShrinkPassStats: Sendable, Equatable {
    /// The pass's name (`ShrinkPass.name`).
    public var pass: String
    /// Times the pass was run.
    public var runs = 0
    /// Candidates it ran.
    public var attempts = 0
    /// Candidates it made that were accepted.
    public var improvements = 0
    /// Choices its accepted candidates removed from the sequence.
    public var choicesRemoved = 0

    public init(pass: String) { self.pass = pass }
}
