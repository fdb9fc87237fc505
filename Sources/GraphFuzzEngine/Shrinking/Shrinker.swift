/// Limits on one shrink: attempts (candidate runs) and wall-clock seconds.
public struct ShrinkBudget: Sendable, Equatable {
    public var maxAttempts: Int
    public var maxSeconds: Double

    public init(maxAttempts: Int = 20_000, maxSeconds: Double = 60) {
        self.maxAttempts = maxAttempts
        self.maxSeconds = maxSeconds
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
    /// True when the budget, not a fixed point, ended the shrink.
    public var budgetExhausted: Bool
    /// Attempts and improvements per pass, in pass order: what the shrinker did, for reports.
    public var passes: [ShrinkPassStats]

    public init(sequence: ChoiceSequence, attempts: Int, improvements: Int, budgetExhausted: Bool, passes: [ShrinkPassStats]) {
        self.sequence = sequence
        self.attempts = attempts
        self.improvements = improvements
        self.budgetExhausted = budgetExhausted
        self.passes = passes
    }
}

/// The shrinker's passes, in the order one round runs them.
public enum ShrinkPass: String, CaseIterable, Sendable {
    case deleteSteps = "delete-steps", deleteSpans = "delete-elements", zeroSpans = "zero-spans"
    case replaceWithDescendants = "replace-with-descendant", minimiseChoices = "minimise-choices"
    case sortSiblings = "sort-siblings", deleteBlocks = "delete-blocks"
    case deleteStepAdaptNext = "delete-step-adapt-next", pairs = "lower-pairs"

    var index: Int { Self.allCases.firstIndex(of: self)! }
}

/// What one pass did during a shrink.
public struct ShrinkPassStats: Sendable, Equatable {
    public var pass: ShrinkPass
    public var attempts = 0
    public var improvements = 0
}

/// Shrinks a failing choice sequence to a simpler one failing with the same signature.
///
/// It never looks at typed values: it deletes whole steps (blocks halving in size), deletes spans
/// and small blocks of choices, zeroes spans, minimises each choice by binary search, sorts
/// adjacent sibling spans, and lowers or redistributes pairs of choices. Every candidate is run
/// through the generators again, so it is valid by construction. A candidate is accepted only if
/// it fails with the same signature and its consumed sequence is strictly simpler (shortlex), so
/// the process terminates; it runs passes in a fixed order to a fixed point, deterministically.
public final class Shrinker {
    /// Runs a candidate sequence: its outcome, and the draw holding what it consumed.
    private let test: (ChoiceSequence) -> (outcome: Outcome, draw: Draw)
    private let signature: FailureSignature
    private let budget: ShrinkBudget
    private let clock = ContinuousClock()
    private let deadline: ContinuousClock.Instant

    /// The best sequence as consumed (trailing zeros kept, so spans index into it).
    private var raw: [UInt64] = []
    private var best: ChoiceSequence
    private var spans: [Span] = []
    private var seen: Set<ChoiceSequence> = []
    public private(set) var attempts = 0
    public private(set) var improvements = 0
    private var outOfBudget = false
    private var passStats = ShrinkPass.allCases.map { ShrinkPassStats(pass: $0) }
    private var currentPass = ShrinkPass.deleteSteps

    /// - Parameters:
    ///   - test: runs one case from the given draw.
    ///   - signature: the signature every accepted candidate must fail with.
    public convenience init(signature: FailureSignature, budget: ShrinkBudget = ShrinkBudget(), test: @escaping (Draw) -> Outcome) {
        self.init(signature: signature, budget: budget, candidates: { sequence in
            let draw = Draw(replaying: sequence)
            return (test(draw), draw)
        })
    }

    /// A shrinker whose candidates run somewhere else, for example in a worker process that may
    /// crash or hang: `candidates` runs a sequence and returns its outcome and a draw holding the
    /// choices and spans the case consumed. The draw is read only when the outcome fails with the
    /// signature; for any other outcome it may be a fresh, unrun `Draw(replaying:)`.
    public init(signature: FailureSignature, budget: ShrinkBudget = ShrinkBudget(),
                candidates: @escaping (ChoiceSequence) -> (outcome: Outcome, draw: Draw)) {
        self.test = candidates
        self.signature = signature
        self.budget = budget
        self.deadline = clock.now.advanced(by: .milliseconds(Int64(budget.maxSeconds * 1000)))
        self.best = ChoiceSequence([])
    }

    /// Shrinks `start`, which must fail with the signature (otherwise it is returned unchanged).
    public func shrink(_ start: ChoiceSequence) -> ShrinkResult {
        let (outcome, draw) = test(start)
        guard case .fail(let failure) = outcome, failure.signature == signature else {
            return ShrinkResult(sequence: start, attempts: 1, improvements: 0, budgetExhausted: false, passes: [])
        }
        attempts = 1
        adopt(draw)
        while !outOfBudget {
            var progress = false
            progress = run(.deleteSteps, deleteSteps) || progress
            progress = run(.deleteSpans, deleteSpans) || progress
            progress = run(.zeroSpans, zeroSpans) || progress
            progress = run(.replaceWithDescendants, replaceWithDescendants) || progress
            progress = run(.minimiseChoices, minimiseChoices) || progress
            progress = run(.sortSiblings, sortSiblings) || progress
            if !progress { progress = run(.deleteBlocks, deleteBlocks) }
            if !progress { progress = run(.deleteStepAdaptNext, deleteStepAdaptingNext) }
            if !progress { progress = run(.pairs, pairs) }
            if !progress { break }
        }
        return ShrinkResult(sequence: best, attempts: attempts, improvements: improvements, budgetExhausted: outOfBudget,
                            passes: passStats)
    }

    private func run(_ pass: ShrinkPass, _ body: () -> Bool) -> Bool {
        currentPass = pass
        return body()
    }

    // MARK: Candidates

    private func adopt(_ draw: Draw) {
        raw = draw.choices
        best = draw.sequence
        spans = draw.spans
    }

    /// Runs `candidate` if it is simpler than the best and new; adopts it when it fails the same way.
    @discardableResult
    private func consider(_ candidate: [UInt64]) -> Bool {
        let sequence = ChoiceSequence(candidate)
        guard sequence.isSimpler(than: best), !outOfBudget else { return false }
        guard seen.insert(sequence).inserted else { return false }
        if attempts >= budget.maxAttempts || (attempts & 15 == 0 && clock.now >= deadline) {
            outOfBudget = true
            return false
        }
        attempts += 1
        passStats[currentPass.index].attempts += 1
        let (outcome, draw) = test(sequence)
        guard case .fail(let failure) = outcome, failure.signature == signature,
              draw.sequence.isSimpler(than: best) else { return false }
        adopt(draw)
        improvements += 1
        passStats[currentPass.index].improvements += 1
        return true
    }

    private func removing(_ range: Range<Int>) -> [UInt64] {
        var candidate = raw
        candidate.removeSubrange(range.clamped(to: 0..<candidate.count))
        return candidate
    }

    // MARK: Passes

    /// Deletes blocks of whole state-machine steps: halving block sizes from half the steps down to
    /// adjacent pairs and single steps, sliding from the last step to the first.
    private func deleteSteps() -> Bool {
        var progress = false
        var sizes: [Int] = []
        var size = stepSpans().count / 2
        while size > 2 { sizes.append(size); size /= 2 }
        sizes += [2, 1]
        for size in sizes where !outOfBudget {
            var i = stepSpans().count - size
            while i >= 0 && !outOfBudget {
                let steps = stepSpans()
                if i + size > steps.count { i = steps.count - size; continue }
                if consider(removing(steps[i].start..<steps[i + size - 1].end)) {
                    progress = true
                } else {
                    i -= 1
                }
            }
        }
        return progress
    }

    /// Deletes a step and, in the same candidate, lowers the first decision of the step after it
    /// (usually which command it is) to each smaller value: a later step that needed the deleted
    /// one's object can become a simpler command that does not. A simpler command may draw fewer
    /// choices, so each value is also tried with up to two of the step's last choices dropped.
    private func deleteStepAdaptingNext() -> Bool {
        var i = stepSpans().count - 2
        while i >= 0 && !outOfBudget {
            let steps = stepSpans()
            guard i + 1 < steps.count else { i -= 1; continue }
            let deleted = steps[i], next = steps[i + 1]
            // The next step's first choice is its continue flag; its second is the first decision.
            let decision = next.start + 1
            if decision < next.end, decision < raw.count, raw[decision] > 0 {
                for value in 0..<raw[decision] where !outOfBudget {
                    for drop in 0...Swift.min(2, next.end - decision - 1) where !outOfBudget {
                        var candidate = raw
                        candidate[decision] = value
                        candidate.removeSubrange((next.end - drop)..<next.end)
                        candidate.removeSubrange(deleted.range)
                        if consider(candidate) { return true }
                    }
                }
            }
            i -= 1
        }
        return false
    }

    private func stepSpans() -> [Span] { spans.filter { $0.label == .step && $0.count > 1 } }

    /// Deletes each element span (a list element with its "more" flag, a sized array's element);
    /// when that alone fails and the element's list is sized by the choice just before it, also
    /// lowers that size.
    private func deleteSpans() -> Bool {
        var progress = false
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            if i < spans.count, spans[i].label == .element, spans[i].count > 0 {
                let span = spans[i]
                if consider(removing(span.range)) {
                    progress = true
                } else if let size = sizeChoice(of: i), raw[size] > 0 {
                    var candidate = raw
                    candidate[size] -= 1
                    candidate.removeSubrange(span.range)
                    if consider(candidate) { progress = true }
                }
            }
            i -= 1
        }
        return progress
    }

    /// The index of the choice that sizes the list holding element span `index`, if the list
    /// starts right after a choice that opens an enclosing bind (`int(in:).flatMap { array(count: $0) }`).
    private func sizeChoice(of index: Int) -> Int? {
        let element = spans[index]
        guard let list = spans[..<index].last(where: { $0.label == .list && $0.depth == element.depth - 1 && $0.start <= element.start }),
              list.start > 0,
              spans[..<index].contains(where: { $0.label == .bind && $0.start == list.start - 1 && $0.depth == list.depth - 1 })
        else { return nil }
        return list.start - 1
    }

    /// Deletes blocks of two and one choices: this joins neighbouring lists and drops stray flags.
    private func deleteBlocks() -> Bool {
        var progress = false
        for size in [2, 1] {
            var i = raw.count - size
            while i >= 0 && !outOfBudget {
                if i + size <= raw.count, consider(removing(i..<(i + size))) { progress = true }
                i -= 1
            }
        }
        return progress
    }

    /// Sets every choice in a span to zero.
    private func zeroSpans() -> Bool {
        var progress = false
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            if i < spans.count {
                let range = spans[i].range.clamped(to: 0..<raw.count)
                if spans[i].label != .value, range.count > 1, raw[range].contains(where: { $0 != 0 }) {
                    var candidate = raw
                    for j in range { candidate[j] = 0 }
                    if consider(candidate) { progress = true }
                }
            }
            i -= 1
        }
        return progress
    }

    /// Replaces a span by a descendant span with the same label: a sub-expression by one of its
    /// children, a nested list by an inner one. This collapses recursive structure in one step.
    private func replaceWithDescendants() -> Bool {
        var progress = false
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            if i < spans.count {
                let outer = spans[i]
                var j = i + 1
                while j < spans.count && spans[j].start < outer.end && !outOfBudget {
                    let inner = spans[j]
                    if inner.label == outer.label, inner.depth > outer.depth, inner.end <= outer.end,
                       inner.count < outer.count, outer.end <= raw.count {
                        var candidate = raw
                        candidate.replaceSubrange(outer.range, with: raw[inner.range])
                        if consider(candidate) { progress = true; break }
                    }
                    j += 1
                }
            }
            i -= 1
        }
        return progress
    }

    /// Lowers each choice as far as it will go: 0, then binary search between the last value that
    /// passed and the smallest that failed.
    private func minimiseChoices() -> Bool {
        var progress = false
        var i = 0
        while i < raw.count && !outOfBudget {
            if raw[i] > 0 && lower(at: i) { progress = true }
            i += 1
        }
        return progress
    }

    private func lower(at i: Int) -> Bool {
        func attempt(_ value: UInt64) -> Bool {
            guard i < raw.count else { return false }
            var candidate = raw
            candidate[i] = value
            return consider(candidate)
        }
        if attempt(0) { return true }
        guard i < raw.count else { return false }
        if raw[i] > 1 && attempt(1) { return true }
        guard i < raw.count else { return false }
        var low: UInt64 = 1, high = raw[i]
        var progress = false
        while low + 1 < high && !outOfBudget && i < raw.count {
            let mid = low + (high - low) / 2
            if attempt(mid) {
                progress = true
                high = i < raw.count ? Swift.min(mid, raw[i]) : mid
            } else {
                low = mid
            }
        }
        return progress
    }

    /// Swaps adjacent sibling spans whose order is not sorted (by their choices).
    private func sortSiblings() -> Bool {
        var progress = false
        var i = 0
        while i + 1 < spans.count && !outOfBudget {
            let a = spans[i]
            if let b = spans[(i + 1)...].first(where: { $0.start == a.end && $0.depth == a.depth }),
               a.label == b.label, a.label != .step, a.count > 0, b.count > 0, b.end <= raw.count,
               raw[b.range].lexicographicallyPrecedes(raw[a.range]) {
                var candidate = raw
                candidate.replaceSubrange(a.start..<b.end, with: Array(raw[b.range]) + Array(raw[a.range]))
                if consider(candidate) { progress = true }
            }
            i += 1
        }
        return progress
    }

    /// For pairs of nearby non-zero choices: lower both by the same amount, or move an amount from
    /// the first to the second. This crosses local minima where choices depend on each other.
    private func pairs() -> Bool {
        var progress = false
        let window = 6
        var i = 0
        while i < raw.count && !outOfBudget {
            var j = i + 1
            while j < Swift.min(raw.count, i + window) && !outOfBudget {
                if raw[i] > 0 {
                    if raw[j] > 0, pairSearch(i, j, together: true) { progress = true }
                    if i < raw.count, j < raw.count, raw[i] > 0, raw[j] > 0 || j == i + 1,
                       pairSearch(i, j, together: false) { progress = true }
                }
                j += 1
            }
            i += 1
        }
        return progress
    }

    /// Finds the largest k that still fails for (raw[i] - k, raw[j] ∓ k).
    private func pairSearch(_ i: Int, _ j: Int, together: Bool) -> Bool {
        func attempt(_ k: UInt64) -> Bool {
            guard i < raw.count, j < raw.count, raw[i] >= k else { return false }
            if together && raw[j] < k { return false }
            var candidate = raw
            candidate[i] -= k
            if together {
                candidate[j] -= k
            } else {
                let (sum, overflow) = candidate[j].addingReportingOverflow(k)
                if overflow { return false }
                candidate[j] = sum
            }
            return consider(candidate)
        }
        let limit = together ? Swift.min(raw[i], raw[j]) : raw[i]
        if attempt(limit) { return true }
        if !attempt(1) { return false }
        // raw has moved by 1; search the rest of the way.
        var low: UInt64 = 0, high = limit - 1
        while low + 1 < high && !outOfBudget {
            let mid = low + (high - low) / 2
            if attempt(mid) { high -= mid; low = 0 } else { high = mid }
        }
        return true
    }
}
