/// The passes that keep the sequence's length or shorten it by lowering choices: zeroing spans,
/// replacing a span by a descendant, minimising single choices, sorting siblings, lowering with
/// realignment, and redistributing between pairs.
extension Shrinker {
    /// Sets every choice in a span to zero. A schedule zeroed (every job in the order it was enqueued) makes as
    /// many decisions as that order has steps with a choice, seldom as many as it had: a candidate that does not
    /// fail as it is is realigned, its step keeping what it then consumed, followed by the later steps as they were.
    func zeroSpans() -> Bool {
        var progress = false
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            if i < spans.count {
                let span = spans[i]
                let range = span.range.clamped(to: 0..<raw.count)
                if span.label != .value, span.label != .element, range.count > 1, raw[range].contains(where: { $0 != 0 }) {
                    var candidate = raw
                    for j in range { candidate[j] = 0 }
                    if span.label == .schedule, let step = step(holding: span) {
                        if realigned(candidate, stepAt: step.start, depth: step.depth, followedByChoicesFrom: step.end) { progress = true }
                    } else if consider(candidate) {
                        progress = true
                    }
                }
            }
            i -= 1
        }
        return progress
    }

    /// Replaces a span by a descendant span with the same label: a sub-expression by one of its
    /// children, a nested list by an inner one. This collapses recursive structure in one step.
    func replaceWithDescendants() -> Bool {
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

    /// Lowers each choice as far as it will go: 0, then 1, then binary search between the last
    /// value that passed and the smallest that failed. A choice whose full search already found
    /// nothing at its current value is only re-checked at 0 and one below; a full search follows
    /// if either fails. In the full search, a value that makes a filter reject a try it kept (the
    /// choice's own try, or a later one whose filter depends on the choice) is refitted
    /// (`refitRejectedTry`): the filter is offered the values below, and the candidate keeps the first
    /// it accepts. Without that, a search meets mostly rejected values above the smallest one a sparse
    /// filter keeps, and stops.
    func minimiseChoices() -> Bool {
        var progress = false
        var i = 0
        while i < raw.count && !outOfBudget {
            if raw[i] > 0 && !isMoreFlag(i) && lower(at: i) { progress = true }
            i += 1
        }
        return progress
    }

    /// Whether choice `i` is the "more" flag (the bound-1 choice that opens an element span) of a
    /// list's last element, followed by the list's end flag: lowering it only deletes that last
    /// element, which delete-elements tries first. (Flags of earlier elements stay: lowering one
    /// cuts the list there, which a list whose elements index into it needs.)
    private func isMoreFlag(_ i: Int) -> Bool {
        guard bounds[i] == 1, let element = spans.first(where: { $0.label == .element && $0.start == i && $0.count > 1 }) else { return false }
        return element.end < raw.count && raw[element.end] == 0 && bounds[element.end] == 1
            && spans.contains { $0.label == .element && $0.start == element.end && $0.count == 1 && $0.depth == element.depth }
    }

    private func lower(at i: Int) -> Bool {
        // Refits stop for this choice once a filter kept none of the values offered below one it rejected.
        var refitting = true
        func attempt(_ value: UInt64) -> Bool {
            guard i < raw.count else { return false }
            var candidate = raw
            candidate[i] = value
            let (accepted, run) = evaluate(candidate)
            if accepted { return true }
            guard refitting else { return false }
            switch refitRejectedTry(candidate, changed: i, run: run) {
            case .accepted: return true
            case .noneKept: refitting = false
            case .kept, .notTried: break
            }
            return false
        }
        let start = raw[i]
        if exhausted[i] == start {
            // The cheap re-check leaves refits to the full search.
            refitting = false
            if attempt(0) || (start > 1 && attempt(start - 1)) { return true }
            return false
        }
        if zeroRestOfValue(from: i) ?? attempt(0) { return true }
        guard i < raw.count else { return false }
        if raw[i] > 1 && attempt(1) { return true }
        guard i < raw.count else { return false }
        // A choice over more than 32 bits (a full-range integer) usually ends tiny next to its
        // range: search up from 2 in doubling steps. Narrower choices binary-search down.
        if bounds[i] > UInt64(UInt32.max) {
            let progress = Self.searchUpwards(from: raw[i], attempt)
            if !progress && !outOfBudget && i < raw.count && raw[i] == start { exhausted[i] = start }
            return progress
        }
        // One and two below first (Hypothesis' Integer shrinker tries both): a value held up by
        // another (a key above its predecessor, a sum to keep) is often minimal already, and then
        // these runs replace the whole binary search. Two below crosses a hole of one value (a
        // difference that must not be 0 fails at one apart either way).
        var progress = false
        if raw[i] > 2 {
            let probes = raw[i] > 3 ? [raw[i] - 1, raw[i] - 2] : [raw[i] - 1]
            guard probes.contains(where: { i < raw.count && $0 < raw[i] && attempt($0) }) else {
                if !outOfBudget && i < raw.count && raw[i] == start { exhausted[i] = start }
                return false
            }
            progress = true
            guard i < raw.count else { return true }
        }
        var low: UInt64 = 1, high = raw[i]
        while low + 1 < high && !outOfBudget && i < raw.count {
            let mid = low + (high - low) / 2
            if attempt(mid) {
                progress = true
                high = i < raw.count ? Swift.min(mid, raw[i]) : mid
            } else {
                low = mid
            }
        }
        if !progress && !outOfBudget && i < raw.count && raw[i] == start { exhausted[i] = start }
        return progress
    }

    /// When choice `i` opens an integer's span (its magnitude, then its sign) and a later choice
    /// of that span is not 0: tries the whole integer at 0 in one candidate (magnitude 0 reads the
    /// same value whatever its sign, and the zeros are the simpler sequence) instead of the
    /// magnitude alone. Nil when there is no such span; else whether the candidate was accepted.
    private func zeroRestOfValue(from i: Int) -> Bool? {
        guard let value = spans.first(where: { $0.label == .value && $0.start == i && $0.count > 1 }),
              value.end <= raw.count, raw[(i + 1)..<value.end].contains(where: { $0 != 0 }) else { return nil }
        var candidate = raw
        for j in value.range { candidate[j] = 0 }
        return consider(candidate)
    }

    /// Finds a small failing value below `value` when 0 and 1 pass: tries 2, 4, 8, … while below
    /// `value`, then binary-searches between the last passing and the first failing one.
    /// Costs about twice the bits of the answer rather than the bits of `value`.
    static func searchUpwards(from value: UInt64, _ attempt: (UInt64) -> Bool) -> Bool {
        var low: UInt64 = 1, high = value
        var probe: UInt64 = 2
        while probe < value {
            if attempt(probe) { high = probe; break }
            low = probe
            if probe > UInt64.max / 2 { break }
            probe *= 2
        }
        var progress = high < value
        while low + 1 < high {
            let mid = low + (high - low) / 2
            if attempt(mid) { progress = true; high = mid } else { low = mid }
        }
        return progress
    }

    /// Lowers choices that hold the same value together (bounded choices above 1 only): two values
    /// that must stay equal cannot be lowered one at a time. 0, 1, then binary search.
    func lowerDuplicates() -> Bool {
        var positions: [UInt64: [Int]] = [:]
        for i in raw.indices where raw[i] > 1 && bounds[i] > 1 { positions[raw[i], default: []].append(i) }
        var progress = false
        for value in positions.keys.sorted() where !outOfBudget {
            let group = positions[value]!
            guard group.count > 1 else { continue }
            func attempt(_ target: UInt64) -> Bool {
                guard group.allSatisfy({ $0 < raw.count && raw[$0] >= target }) else { return false }
                var candidate = raw
                for i in group { candidate[i] = target }
                return consider(candidate)
            }
            if attempt(0) || attempt(1) { progress = true; continue }
            if Self.searchUpwards(from: value, attempt) { progress = true }
        }
        return progress
    }

    /// Lowers a choice inside a list to a smaller value that another choice of the same list with
    /// the same bound holds (largest first), one candidate per value: an element that must equal or
    /// point at another (an index into its list following a cycle) is often stuck above every value
    /// between, where minimise-choices' probes one and two below pass. Only for sequences without
    /// state-machine steps (the step passes handle those). Stops at the first improvement.
    func lowerToHeldValue() -> Bool {
        guard stepSpans().isEmpty else { return false }
        var i = 0
        while i < raw.count && !outOfBudget {
            defer { i += 1 }
            guard bounds[i] > 1, raw[i] > 1,
                  let list = spans.last(where: { $0.label == .list && $0.start < i && i < $0.end }) else { continue }
            var held: Set<UInt64> = []
            for j in list.range.clamped(to: 0..<raw.count) where j != i && bounds[j] == bounds[i] && raw[j] > 0 && raw[j] < raw[i] {
                held.insert(raw[j])
            }
            for value in held.sorted(by: >) where !outOfBudget {
                var candidate = raw
                candidate[i] = value
                if consider(candidate) { return true }
            }
        }
        return false
    }

    /// Swaps adjacent sibling spans whose order is not sorted (by their choices).
    func sortSiblings() -> Bool {
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

    /// Lowers the first choice of a span (which branch, whether a list goes on, a bind's first
    /// value) to 0 or one less, runs the generator, and keeps what it then consumed for that span
    /// followed by the choices that came after the span before: the candidate drops the choices the
    /// span no longer reads (or reads fresh zeros for new ones) without shifting what follows.
    func lowerAndRealign() -> Bool {
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            defer { i -= 1 }
            guard i < spans.count else { continue }
            let span = spans[i]
            guard Self.realignable(span.label), span.count > 1, span.end <= raw.count, raw[span.start] > 0,
                  !spans[..<i].contains(where: { $0.start == span.start }) else { continue }
            for value in Set([0, raw[span.start] - 1]).sorted() where !outOfBudget {
                var lowered = raw
                lowered[span.start] = value
                let (accepted, draw) = evaluate(lowered)
                if accepted { return true }
                // Re-run when an earlier pass already tried the plain lowering, to see what it reads.
                guard let consumed = draw ?? probe(lowered),
                      let now = consumed.spans.first(where: { $0.start == span.start && $0.label == span.label && $0.depth == span.depth }),
                      now.end != span.end, now.end <= consumed.choices.count else { continue }
                if consider(Array(consumed.choices[..<now.end]) + raw[span.end...]) { return true }
            }
        }
        return false
    }

    /// Spans whose first choice decides how much the span reads: a branch, a bind, or a label of
    /// the user's own (lists, elements, steps, integers and a filter's tries have passes of their own).
    package static func realignable(_ label: Span.Label) -> Bool {
        ![Span.Label.element, .list, .step, .value, .config, .parameters, .parameter, .command, .attempt].contains(label)
    }

    /// For pairs of nearby non-zero choices: lower both by the same amount (which keeps their order
    /// and difference), or move an amount from the first to the second (which keeps their sum).
    /// This crosses local minima where choices depend on each other.
    func redistribute() -> Bool {
        var progress = false
        let window = 6
        var i = 0
        while i < raw.count && !outOfBudget {
            var j = i + 1
            while j < Swift.min(raw.count, i + window) && !outOfBudget {
                // Flags and signs (bound 1) only as the receiving side just after a value: its sign.
                if raw[i] > 0, bounds[i] > 1, bounds[j] > 1 || j == i + 1 {
                    if raw[j] > 0, bounds[j] > 1, pairSearch(i, j, together: true) { progress = true }
                    if i < raw.count, j < raw.count, raw[i] > 0, raw[j] > 0 || j == i + 1, raw[j] < bounds[j],
                       !movesMagnitudeToSign(i, j), pairSearch(i, j, together: false) { progress = true }
                }
                j += 1
            }
            i += 1
        }
        return progress
    }

    /// Whether moving an amount from `i` to `j` would only turn an integer's magnitude of 1 into a
    /// magnitude of 0 with its sign set: `i` opens a value span (magnitude, then sign) and `j` is its
    /// sign. That reads the integer 0, which minimise-choices tried with the sign cleared.
    private func movesMagnitudeToSign(_ i: Int, _ j: Int) -> Bool {
        guard j == i + 1, bounds[j] == 1, raw[i] == 1 else { return false }
        return spans.contains { $0.label == .value && $0.start == i && $0.end > j }
    }

    /// Finds the largest k that still fails for (raw[i] - k, raw[j] ∓ k).
    func pairSearch(_ i: Int, _ j: Int, together: Bool) -> Bool {
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
        let limit = together ? Swift.min(raw[i], raw[j]) : Swift.min(raw[i], bounds[j] - raw[j])
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
