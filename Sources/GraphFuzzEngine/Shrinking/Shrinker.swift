/// Shrinks a failing choice sequence to a simpler one failing with the same signature.
///
/// It never looks at typed values: its passes (`ShrinkPass`, held as data with statistics)
/// delete the tries a filter rejected (discarded spans), steps, spans and blocks, zero spans, lower
/// choices (refitting a filter's kept try past the values it rejects), sort siblings, and combine edits
/// (delete a span and lower a neighbour, lower a choice and realign what follows, move an amount
/// between two choices). Every candidate is run through the generators again, so it is valid by
/// construction. A candidate is accepted only if it fails with the same signature and its consumed
/// sequence is strictly simpler (shortlex), so the process terminates.
///
/// Cheap passes run in rounds to a fixed point; after each round they are reordered by what
/// succeeded (passes that removed choices first, then those that improved, then the rest). When no
/// cheap pass improves, the expensive passes are tried one at a time in the same adaptive order.
/// The shrink ends at a fixed point, or when `maxStall` runs in a row brought no improvement, or
/// when the budget runs out, or when it is told to stop (`stopRequested`: SIGINT, SIGTERM), the best so far
/// then marked `interrupted`. Everything is deterministic.
package final class Shrinker {
    /// Runs a candidate sequence: its outcome, and what it consumed.
    private let test: (ChoiceSequence) -> CaseResult
    private let signature: FailureSignature
    private let budget: ShrinkBudget
    private let clock = ContinuousClock()
    private let deadline: ContinuousClock.Instant?
    private let passes: [ShrinkPass]
    /// True once the shrink must stop before its next candidate (the run was interrupted).
    private let stopRequested: () -> Bool

    /// The best sequence as consumed (trailing zeros kept, so spans index into it).
    private(set) var raw: [UInt64] = []
    private(set) var best: ChoiceSequence
    private(set) var spans: [Span] = []
    /// The bound of each choice of `raw`.
    private(set) var bounds: [UInt64] = []
    /// How many non-empty discarded spans (a filter's rejected tries) the best holds.
    private var discardedSpans = 0
    /// Positions whose full downward search found nothing, with the value they then held; a
    /// later round only re-checks them cheaply. Cleared when the sequence's length changes.
    var exhausted: [Int: UInt64] = [:]
    /// How far from the end of the sequence the choice sits that had to be lowered by one for an
    /// element's deletion not to be discarded (a size drawn after its list): `deleteElements`
    /// lowers it together with later deletions. Learnt by `deleteSpanLoweringNeighbour`.
    var partnerFromEnd: Int?
    /// Whether delete-elements already looked for a partner after a discarded deletion.
    var partnerSearched = false
    /// The declared parameters (by their order in the configuration) `lowerParameters` set to zero without an
    /// improvement: not tried again.
    var parametersTried: [Int] = []
    private var seen: Set<ChoiceSequence> = []
    /// What earlier runs consumed and how they ended: candidates with a known end are not run.
    private var tree = ChoiceTree()
    /// Candidates that were discarded rather than passing: the case was rejected, or a filter
    /// rejected a try the best had kept (the run holds more discarded spans than the best). An
    /// edit that breaks a filter is an edit that breaks an assumption; combined passes start there.
    private(set) var discarded: Set<ChoiceSequence> = []
    /// Whether the last candidate considered was discarded (run, or known from an earlier run).
    private(set) var lastDiscarded = false
    package private(set) var attempts = 0
    package private(set) var improvements = 0
    private var skipped = 0
    private var lastImprovement = 0
    private(set) var outOfBudget = false
    private var budgetExhausted = false
    private var stalled = false
    private var interrupted = false
    private var stats: [ShrinkPassStats]
    /// Per pass, how many of its runs in a row improved nothing.
    private var failedRuns: [Int]
    private var current = 0

    /// - Parameters:
    ///   - test: runs one case from the given draw.
    ///   - signature: the signature every accepted candidate must fail with.
    ///   - passes: the passes to use (all of `ShrinkPass.standard` unless given).
    package convenience init(signature: FailureSignature, budget: ShrinkBudget = ShrinkBudget(),
                            passes: [ShrinkPass] = ShrinkPass.standard, test: @escaping (Draw) -> Outcome) {
        self.init(signature: signature, budget: budget, passes: passes, candidates: { sequence in
            let draw = Draw(replaying: sequence)
            return CaseResult(outcome: test(draw), consumed: draw.consumed)
        })
    }

    /// A shrinker whose candidates run somewhere else, for example in a worker process that may crash or hang:
    /// `candidates` runs a sequence and returns its outcome and what the case consumed (its choices, their bounds and
    /// the spans), whatever the outcome (passes read what a passing candidate consumed too). `stopRequested` is asked
    /// before each candidate: once true, the shrink ends with the best so far, `interrupted`.
    package init(signature: FailureSignature, budget: ShrinkBudget = ShrinkBudget(), passes: [ShrinkPass] = ShrinkPass.standard,
                stopRequested: @escaping () -> Bool = { false }, candidates: @escaping (ChoiceSequence) -> CaseResult) {
        self.test = candidates
        self.stopRequested = stopRequested
        self.signature = signature
        self.budget = budget
        self.passes = passes
        self.stats = passes.map { ShrinkPassStats(pass: $0.name) }
        self.failedRuns = passes.map { _ in 0 }
        let start = ContinuousClock().now
        self.deadline = budget.maxSeconds.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        self.best = ChoiceSequence([])
    }

    /// Shrinks `start`, which must fail with the signature (otherwise it is returned unchanged).
    /// `run` is a run of `start` the caller already made (the search's own run of the failing case): given, the
    /// shrink does not run `start` again, and counts only the candidates it runs, as Hypothesis counts its shrink's
    /// calls.
    package func shrink(_ start: ChoiceSequence, run: CaseResult? = nil) -> ShrinkResult {
        let known = run.flatMap { $0.consumed.sequence == start && !$0.consumed.choices.isEmpty ? $0 : nil }
        let first = known ?? test(start)
        let replays = known == nil ? 1 : 0
        guard case .fail(let failure) = first.outcome, failure.signature == signature else {
            return ShrinkResult(sequence: start, attempts: replays, improvements: 0, budgetExhausted: false, passes: [])
        }
        attempts = replays
        lastImprovement = replays
        remember(first.outcome, first.consumed)
        adopt(first.consumed)
        var cheap = passes.indices.filter { passes[$0].tier == .cheap }
        var expensive = passes.indices.filter { passes[$0].tier == .expensive }
        while !outOfBudget {
            if round(&cheap, untilFirstImprovement: false) { continue }
            if !round(&expensive, untilFirstImprovement: true) { break }
        }
        return ShrinkResult(sequence: best, attempts: attempts, improvements: improvements, budgetExhausted: budgetExhausted,
                            stalled: stalled, interrupted: interrupted, passes: stats, skipped: skipped)
    }

    /// Runs the passes in `order` (stopping at the first that improves, if asked), then reorders
    /// them stably: passes that removed choices first, then those that improved, then the rest. In a
    /// round that stops at its first improvement, the rest are ordered by how many of their runs in a
    /// row improved nothing (fewest first, a pass not reached keeping its count): a pass that keeps
    /// failing runs after those that improved lately, so it stops costing a run in every round before
    /// the pass that improves (Hypothesis deprioritises passes that keep failing). At a fixed point
    /// every pass has still run on the final sequence.
    private func round(_ order: inout [Int], untilFirstImprovement: Bool) -> Bool {
        var rank: [Int: Int] = [:]
        var progress = false
        for index in order where !outOfBudget {
            let before = best
            current = index
            stats[index].runs += 1
            let improved = passes[index].body(self)
            if improved {
                stats[index].choicesRemoved += before.count - best.count
            }
            failedRuns[index] = improved ? 0 : failedRuns[index] + 1
            rank[index] = !improved ? 2 : best.count < before.count ? 0 : 1
            progress = progress || improved
            if improved && untilFirstImprovement { break }
        }
        let failures = { (index: Int) in untilFirstImprovement ? self.failedRuns[index] : 0 }
        order = order.enumerated().sorted { a, b in
            let (ra, rb) = (rank[a.element] ?? (untilFirstImprovement ? 2 : 1), rank[b.element] ?? (untilFirstImprovement ? 2 : 1))
            if ra != rb { return ra < rb }
            let (fa, fb) = (failures(a.element), failures(b.element))
            return fa != fb ? fa < fb : a.offset < b.offset
        }.map(\.element)
        return progress
    }

    // MARK: Candidates

    private func adopt(_ draw: Consumed) {
        if draw.choices.count != raw.count { exhausted = Self.carried(exhausted, from: raw, to: draw.choices) }
        raw = draw.choices
        bounds = draw.bounds.count == draw.choices.count ? draw.bounds : Array(repeating: .max, count: draw.choices.count)
        best = draw.sequence
        spans = draw.spans
        discardedSpans = Self.discardedCount(draw.spans)
    }

    /// The non-empty discarded spans among `spans`.
    static func discardedCount(_ spans: [Span]) -> Int {
        spans.reduce(0) { $0 + ($1.isDiscarded && $1.count > 0 ? 1 : 0) }
    }

    /// The exhausted positions of `old` that survive in `new`: those in the prefix both share, and
    /// those past it that still hold their value once shifted by the change in length (a deletion
    /// or insertion at the end of the shared prefix). A deletion elsewhere leaves the search of an
    /// untouched choice done.
    static func carried(_ exhausted: [Int: UInt64], from old: [UInt64], to new: [UInt64]) -> [Int: UInt64] {
        guard !exhausted.isEmpty else { return [:] }
        let shorter = Swift.min(old.count, new.count)
        var prefix = 0
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        let shift = new.count - old.count
        var result: [Int: UInt64] = [:]
        for (position, value) in exhausted {
            if position < prefix {
                result[position] = value
            } else if position + shift >= prefix + Swift.max(0, shift), position + shift < new.count, new[position + shift] == value {
                result[position + shift] = value
            }
        }
        return result
    }

    /// Runs `candidate` if it is simpler than the best and new; adopts it when it fails the same way.
    @discardableResult
    func consider(_ candidate: [UInt64]) -> Bool {
        evaluate(candidate).accepted
    }

    /// Like `consider`, also returning what a candidate that was run and not accepted consumed
    /// (nil when it was not run, or when it consumed no choices). `anyLength`
    /// runs a candidate that is not simpler than the best (a filter offered several tries): it is
    /// adopted only if what it consumed is.
    func evaluate(_ candidate: [UInt64], anyLength: Bool = false) -> (accepted: Bool, draw: Consumed?) {
        let sequence = ChoiceSequence(candidate)
        lastDiscarded = false
        guard anyLength || sequence.isSimpler(than: best), !outOfBudget else { return (false, nil) }
        guard seen.insert(sequence).inserted else {
            lastDiscarded = discarded.contains(sequence)
            return (false, nil)
        }
        if attempts >= budget.maxAttempts || (attempts & 15 == 0 && deadline.map { clock.now >= $0 } == true) {
            outOfBudget = true
            budgetExhausted = true
            return (false, nil)
        }
        if attempts - lastImprovement >= budget.maxStall {
            outOfBudget = true
            stalled = true
            return (false, nil)
        }
        if let known = tree.end(of: candidate) {
            skipped += 1
            if known == .rejected {
                discarded.insert(sequence)
                lastDiscarded = true
            }
            return (false, nil)
        }
        guard !stopped() else { return (false, nil) }
        attempts += 1
        stats[current].attempts += 1
        let result = test(sequence)
        let draw = result.consumed
        remember(result.outcome, draw)
        switch result.outcome {
        case .fail(let failure) where failure.signature == signature && draw.sequence.isSimpler(than: best):
            adopt(draw)
            improvements += 1
            lastImprovement = attempts
            stats[current].improvements += 1
            return (true, nil)
        case .rejected:
            discarded.insert(sequence)
            lastDiscarded = true
        default:
            if Self.discardedCount(draw.spans) > discardedSpans {
                discarded.insert(sequence)
                lastDiscarded = true
            }
        }
        return (false, draw.choices.isEmpty ? nil : draw)
    }

    /// Whether the shrink was told to stop: it then ends, `interrupted`, before running another candidate.
    private func stopped() -> Bool {
        guard !interrupted else { return true }
        guard stopRequested() else { return false }
        interrupted = true
        outOfBudget = true
        return true
    }

    private func remember(_ outcome: Outcome, _ draw: Consumed) {
        guard !draw.choices.isEmpty else { return }
        let end: ChoiceTree.End
        switch outcome {
        case .pass: end = .passed
        case .rejected: end = .rejected
        case .fail: end = .failedOtherwise
        case .harnessFault: return  // no verdict: nothing to remember
        }
        tree.record(draw, end: end)
    }

    /// What a candidate that was already tried consumes: never adopted. When an earlier run took the same path
    /// (`ChoiceTree`), what that run consumed, without running it again; otherwise it runs, counted as an attempt
    /// and bound by the budget. Nil when it is not simpler than the best.
    func probe(_ candidate: [UInt64]) -> Consumed? {
        let sequence = ChoiceSequence(candidate)
        guard sequence.isSimpler(than: best), !outOfBudget, attempts < budget.maxAttempts,
              attempts - lastImprovement < budget.maxStall, !stopped() else { return nil }
        if let known = tree.consumed(by: candidate) {
            skipped += 1
            return known.choices.isEmpty ? nil : known
        }
        attempts += 1
        stats[current].attempts += 1
        let result = test(sequence)
        remember(result.outcome, result.consumed)
        return result.consumed.choices.isEmpty ? nil : result.consumed
    }

    func removing(_ range: Range<Int>) -> [UInt64] {
        var candidate = raw
        candidate.removeSubrange(range.clamped(to: 0..<candidate.count))
        return candidate
    }

    /// Spans of whole state-machine steps (a step that only drew its stop flag is not one).
    func stepSpans() -> [Span] { spans.filter { $0.label == .step && $0.count > 1 } }

    /// The innermost step span holding `span` (a schedule's step), if any.
    func step(holding span: Span) -> Span? { spans.last { $0.label == .step && $0.start <= span.start && span.end <= $0.end } }
}
