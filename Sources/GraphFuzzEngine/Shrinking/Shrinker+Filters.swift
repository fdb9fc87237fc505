/// The passes for filtered values: a filter's tries are `.attempt` spans, the rejected ones
/// discarded. The rejected tries can go: the value does not depend on them.
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
}

extension ShrinkPass {
    /// Deletes the discarded spans (a filter's rejected tries): all at once, else one at a time.
    public static let removeDiscarded = ShrinkPass("remove-discarded", .cheap) { $0.removeDiscarded() }
}
