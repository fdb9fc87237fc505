/// The passes for filtered values: a filter's tries are `.attempt` spans, the rejected ones
/// discarded. The rejected tries can go (the value does not depend on them), and a kept try can
/// give way to a simpler one the filter also keeps, found by offering the filter several tries.
extension Shrinker {
    /// Deletes every discarded span (the outermost ones) in one candidate: the value does not
    /// depend on them, so this nearly always works (Hypothesis' `remove_discarded`). When it does
    /// not, deletes each alone, from the last to the first. Costs nothing without discarded spans.
    func removeDiscarded() -> Bool {
        let outermost = outermostDiscarded()
        guard !outermost.isEmpty else { return false }
        var candidate = raw
        for span in outermost.reversed() { candidate.removeSubrange(span.range) }
        if consider(candidate) { return true }
        var progress = false
        for span in outermost.reversed() where !outOfBudget {
            if consider(removing(span.range)) { progress = true }
        }
        return progress
    }

    /// The non-empty discarded spans that lie in no other discarded span, in order.
    func outermostDiscarded() -> [Span] {
        var result: [Span] = []
        for span in spans where span.isDiscarded && span.count > 0 && span.end <= raw.count {
            if let last = result.last, span.start < last.end { continue }
            result.append(span)
        }
        return result
    }

    /// How many tries one refit offers the filter: the values just below one it rejected (fewer than
    /// `Gen.filter`'s default of ten, so the case is not rejected for running out of tries).
    static let refitTries = 8
    /// After `candidate` (the best with choice `i` changed) ran and was not accepted: when its run
    /// shows a filter rejecting a try the best kept (a discarded `.attempt` span where the best has a
    /// kept one, the first such), considers the candidate with that try refitted (`refit`) from the
    /// changed choice, if it lies in the try, else from the try's first value. The change either
    /// lowered the try's own value to one the filter rejects, or lowered a value the filter depends
    /// on (`flatMap`'s first value), so that the try it kept no longer passes.
    func refitRejectedTry(_ candidate: [UInt64], changed i: Int, run: Consumed?) -> Refit {
        guard lastDiscarded, let run, candidate.count == raw.count,
              let kept = spans.first(where: { kept in
                  kept.label == .attempt && !kept.isDiscarded && kept.count > 0 && kept.end <= raw.count && kept.end > i
                      && run.spans.contains { $0.label == .attempt && $0.isDiscarded && $0.start == kept.start && $0.depth == kept.depth }
              }),
              let q = kept.range.contains(i) ? i : kept.range.first(where: { bounds[$0] > 1 && candidate[$0] > 0 }),
              bounds[q] > 1 else { return .notTried }
        return refit(candidate, kept, at: q)
    }

    /// How a refit ended.
    enum Refit {
        /// A refitted candidate was accepted.
        case accepted
        /// The filter kept one of the tries offered, and the candidate with it was not accepted.
        case kept
        /// The filter kept none of the tries offered (it rejects the values below too).
        case noneKept
        /// Nothing to refit, or the run that would show what the filter keeps was not made.
        case notTried
    }

    /// Considers `base` (the best with some choices changed, the try `kept` where it was; its filter
    /// rejects the try as it stands in `base`) with the try replaced by the first one the filter keeps
    /// among `kept` with choice `q` at each of the `refitTries` values below `base[q]`: one run offers
    /// them all, one after the other, and shows which the filter keeps (adopted at once when that run
    /// already fails simpler); then the candidate with that try alone.
    func refit(_ base: [UInt64], _ kept: Span, at q: Int) -> Refit {
        guard kept.end <= base.count, kept.range.contains(q), base[q] > 0 else { return .notTried }
        let offered = Array(stride(from: base[q] - 1, through: base[q] - Swift.min(base[q], UInt64(Self.refitTries)), by: -1))
        var candidate = Array(base[..<kept.start])
        for value in offered {
            var attempt = Array(base[kept.range])
            attempt[q - kept.start] = value
            candidate += attempt
        }
        candidate += base[kept.end...]
        let (accepted, run) = evaluate(candidate, anyLength: true)
        if accepted { return .accepted }
        guard let draw = run else { return .notTried }
        guard let taken = draw.spans.first(where: { $0.label == .attempt && $0.depth == kept.depth && $0.start >= kept.start && !$0.isDiscarded }),
              taken.count == kept.count, (taken.start - kept.start) % kept.count == 0,
              (taken.start - kept.start) / kept.count < offered.count, taken.end <= draw.choices.count
        else { return .noneKept }
        return consider(Array(base[..<kept.start]) + draw.choices[taken.range] + base[kept.end...]) ? .accepted : .kept
    }
}

extension ShrinkPass {
    /// Deletes the discarded spans (a filter's rejected tries): all at once, else one at a time.
    package static let removeDiscarded = ShrinkPass("remove-discarded", .cheap) { $0.removeDiscarded() }
}
