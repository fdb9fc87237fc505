/// What a case consumed: its choices in order, the bound of each, and the spans over them — all that shrinking
/// reads of a run. A case run in a worker process sends it back (`Draw.consumedDelta`), so the parent learns it
/// without running the case again.
@usableFromInline package struct Consumed: Sendable, Equatable {
    package var choices: [UInt64]
    /// `choices[i]` is in `0...bounds[i]`.
    package var bounds: [UInt64]
    package var spans: [Span]

    @usableFromInline package init(choices: [UInt64] = [], bounds: [UInt64] = [], spans: [Span] = []) {
        self.choices = choices
        self.bounds = bounds
        self.spans = spans
    }

    /// The choices as a sequence to replay.
    package var sequence: ChoiceSequence { ChoiceSequence(choices) }

    /// Adds what `delta` says was consumed since the one before it.
    package mutating func apply(_ delta: ConsumedDelta) {
        choices += delta.choices
        bounds += delta.bounds
        spans.removeSubrange(Swift.min(delta.spansFrom, spans.count)...)
        spans += delta.spans
    }

    /// Closes the spans at `open` (those a case left open when it ended in the middle of a step: a crash, a hang)
    /// where the choices end, as a run that stops before that step's system call closes them.
    package mutating func close(_ open: [Int]) {
        for index in open where index < spans.count { spans[index].end = choices.count }
    }
}

/// What a case consumed since the last delta: the new choices and bounds, and the spans from index `spansFrom` on
/// (spans before it were final when the last delta was taken; those after it replace what the last delta sent), and
/// the indices of the spans still open.
package struct ConsumedDelta: Sendable, Equatable {
    package var choices: [UInt64]
    package var bounds: [UInt64]
    package var spansFrom: Int
    package var spans: [Span]
    package var openSpans: [Int]

    package init(choices: [UInt64], bounds: [UInt64], spansFrom: Int, spans: [Span], openSpans: [Int]) {
        self.choices = choices
        self.bounds = bounds
        self.spansFrom = spansFrom
        self.spans = spans
        self.openSpans = openSpans
    }
}

/// How far a draw's consumption was sent: the next choice and the first span not final then.
package struct ConsumedMark: Sendable, Equatable {
    package var choices = 0
    package var spans = 0

    package init() {}
}

extension Draw {
    /// What the draw consumed (empty for a draw that keeps no record).
    @usableFromInline package var consumed: Consumed { Consumed(choices: choices, bounds: bounds, spans: spans) }

    /// What the draw consumed since `mark`, which moves on: each delta holds the choices after the last, and the
    /// spans from the first one that was still open then.
    package func consumedDelta(since mark: inout ConsumedMark) -> ConsumedDelta {
        let delta = ConsumedDelta(choices: Array(choices[mark.choices...]), bounds: Array(bounds[mark.choices...]), spansFrom: mark.spans,
                                  spans: Array(spans[mark.spans...]), openSpans: openSpans)
        mark.choices = choices.count
        mark.spans = openSpans.first ?? spans.count
        return delta
    }
}
