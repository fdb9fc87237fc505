/// The step-level passes of state-machine shrinking (Hypothesis' and proptest's state-machine
/// shrinkers do the same): replace a step's action by a simpler one, and move a step later, each
/// also together with the deletion of another step. They read only the `.step` and `.command`
/// spans, so sequences without steps cost them nothing.
extension Shrinker {
    /// For each step, from the first to the last: the step's action attempts become the simplest
    /// action choice (0, usually a create), followed by the step's old arguments or by as many
    /// zeros. The generator is run and the step keeps what it then consumed, followed by the later
    /// steps as they were (realigned, as `lowerAndRealign` does for a branch). When that alone does
    /// not fail, the same candidate is tried without each earlier step (the nearest first): the step
    /// that only made the old action possible (a create for what it used) may go with it. Then the
    /// new step's first few small arguments (what kind it creates) are set to each of their values,
    /// alone or without an earlier step. Last, every other smaller action choice, as the first.
    func replaceStepActions() -> Bool {
        for phase in 0..<2 {
            var s = 0
            while !outOfBudget {
                let steps = stepSpans()
                guard s < steps.count else { break }
                defer { s += 1 }
                if replaceAction(of: s, steps, simplest: phase == 0) { return true }
            }
        }
        return false
    }

    private func replaceAction(of s: Int, _ steps: [Span], simplest: Bool) -> Bool {
        let step = steps[s]
        let commands = spans.filter { $0.label == .command && $0.count > 0 && $0.start >= step.start && $0.end <= step.end }
        guard let first = commands.first, let last = commands.last, step.end <= raw.count, raw[first.start] > 0 else { return false }
        let arguments = Array(raw[last.end..<step.end])
        let zeros = [UInt64](repeating: 0, count: arguments.count)
        let values: Range<UInt64> = simplest ? 0..<1 : 1..<Swift.min(raw[first.start], 32)
        let variants: [[UInt64]] = arguments == zeros ? [zeros] : [arguments, zeros]
        for value in values where !outOfBudget {
            for drawn in variants where !outOfBudget {
                var lowered = Array(raw[..<first.start])
                lowered.append(value)
                lowered += drawn
                lowered += raw[step.end...]
                let (accepted, draw) = evaluate(lowered)
                if accepted { return true }
                var candidate = lowered, consumed: Consumed?
                if let run = draw ?? probe(lowered),
                   let now = run.spans.first(where: { $0.label == .step && $0.start == step.start && $0.depth == step.depth }),
                   now.end <= run.choices.count {
                    candidate = Array(run.choices[..<now.end]) + raw[step.end...]
                    consumed = run
                    if candidate != lowered, consider(candidate) { return true }
                }
                if considerWithoutEarlierStep(candidate, s, steps) { return true }
                // Once, for the simplest action with zeroed arguments:
                guard simplest, drawn == zeros else { continue }
                // The new step's first few small arguments, each set to each of its values.
                guard let consumed, let now = consumed.spans.first(where: { $0.label == .step && $0.start == step.start && $0.depth == step.depth })
                else { continue }
                let positions = (first.start + 1)..<Swift.max(first.start + 1, Swift.min(now.end, first.start + 5))
                for p in positions where p < consumed.bounds.count && consumed.bounds[p] > 0 && consumed.bounds[p] <= 7 && !outOfBudget {
                    for v in 1...consumed.bounds[p] where !outOfBudget {
                        var explored = candidate
                        explored[p] = v
                        if consider(explored) || considerWithoutEarlierStep(explored, s, steps) { return true }
                    }
                }
            }
        }
        return false
    }

    /// Considers `candidate` (the best with one step changed, its steps before it as they were); if it is not
    /// accepted, considers what the changed step (the `.step` span at `start` and `depth`) then consumed, followed by
    /// the best's choices from `end` (where the old step ended): the later steps as they were, however many choices
    /// the changed step now reads.
    func realigned(_ candidate: [UInt64], stepAt start: Int, depth: Int, followedByChoicesFrom end: Int) -> Bool {
        let (accepted, draw) = evaluate(candidate)
        if accepted { return true }
        guard let run = draw ?? probe(candidate),
              let now = run.spans.first(where: { $0.label == .step && $0.start == start && $0.depth == depth }),
              now.end <= run.choices.count, end <= raw.count else { return false }
        let aligned = Array(run.choices[..<now.end]) + raw[end...]
        return aligned != candidate && consider(aligned)
    }

    /// Runs `candidate` (whose steps before `s` are those of `steps`) without each earlier step, the
    /// nearest first: an index into what that step created shifts, so nothing else changes.
    private func considerWithoutEarlierStep(_ candidate: [UInt64], _ s: Int, _ steps: [Span]) -> Bool {
        for d in stride(from: s - 1, through: 0, by: -1) where !outOfBudget {
            var shorter = candidate
            shorter.removeSubrange(steps[d].range)
            if consider(shorter) { return true }
        }
        return false
    }

    /// Moves each step later, to just after each later step (the nearest first), alone and
    /// together with the deletion of one other step. A step that must come after another for the failure
    /// (a save after the edit it writes) often blocks a deletion only in its old place.
    func moveSteps() -> Bool {
        var i = 0
        while !outOfBudget {
            defer { i += 1 }
            let steps = stepSpans()
            guard i + 1 < steps.count else { return false }
            guard steps[steps.count - 1].end <= raw.count, zip(steps, steps.dropFirst()).allSatisfy({ $0.end == $1.start }) else { continue }
            for j in (i + 1)..<steps.count where !outOfBudget {
                // Step i moved to just after step j; then without each other step.
                let order = Array(0..<i) + Array((i + 1)...j) + [i] + Array((j + 1)..<steps.count)
                if consider(reordered(steps, order)) { return true }
                for d in order.indices.reversed() where order[d] != i && !outOfBudget {
                    var without = order
                    without.remove(at: d)
                    if consider(reordered(steps, without)) { return true }
                }
            }
        }
        return false
    }

    /// Deletes each step and re-points one later argument choice: for each step (the earliest first), the
    /// candidate without it and with one later argument choice (bound at most 3; not a step's continue flag nor its
    /// action) set to each other value. A deleted step that removed or added one of the things present shifts the
    /// index by which a later step drew one of them, so that the plain deletion names another thing; the
    /// re-pointed choice names the old one again. Deleting a span and *lowering* a neighbour is
    /// `deleteSpanLoweringNeighbour`'s; here the value may rise (a removal deleted, the later index counts it).
    func deleteStepRepointing() -> Bool {
        let steps = stepSpans()
        guard steps.count > 1, steps.last!.end <= raw.count, zip(steps, steps.dropFirst()).allSatisfy({ $0.end == $1.start })
        else { return false }
        let argument = argumentPositions()
        for d in steps.indices.dropLast() where !outOfBudget {
            if considerDeletingStep(d, of: steps, from: raw, repointing: argument) { return true }
        }
        return false
    }

    /// Whether each position of `raw` holds an argument choice: neither a step's continue flag (the first
    /// choice of every `.step` span, the last one's that stops the case too) nor a choice of a `.command` span
    /// (the action). Changing those adds, deletes or replaces a step, which other passes try.
    func argumentPositions() -> [Bool] {
        var isArgument = Array(repeating: true, count: raw.count)
        for span in spans where span.label == .step && span.start < raw.count { isArgument[span.start] = false }
        for span in spans where span.label == .command {
            for q in span.range where q < raw.count { isArgument[q] = false }
        }
        return isArgument
    }

    /// The largest bound of a later choice that the re-pointing passes change: a reference drawn among a few
    /// things (an index into what earlier steps made), a flag, a small mode.
    static let repointBound: UInt64 = 3

    /// `start` (the current choices, perhaps with a configuration choice changed) without step `d` of `steps`,
    /// and with one later argument choice (`isArgument`, bound at most `repointBound`) set to each other value
    /// (1 for a choice that had bound 0): the first candidate accepted ends the search.
    func considerDeletingStep(_ d: Int, of steps: [Span], from start: [UInt64], repointing isArgument: [Bool]) -> Bool {
        var base = start
        base.removeSubrange(steps[d].range)
        var later = bounds
        later.removeSubrange(steps[d].range)
        var argument = isArgument
        argument.removeSubrange(steps[d].range)
        for q in steps[d].start..<base.count where argument[q] && later[q] <= Self.repointBound && !outOfBudget {
            // The bound is the old run's: a choice that had one thing to name (bound 0) may have two once a
            // step that removed one is gone. A value above the new bound clamps to a run already known.
            for other in 0...Swift.max(later[q], 1) where other != base[q] && !outOfBudget {
                var candidate = base
                candidate[q] = other
                if consider(candidate) { return true }
            }
        }
        return false
    }

    /// `raw` with its steps (`steps`, consecutive) in `order` (a subset may leave steps out); the
    /// choices before the first step and after the last stay.
    private func reordered(_ steps: [Span], _ order: [Int]) -> [UInt64] {
        var candidate = Array(raw[..<steps[0].start])
        for k in order { candidate += raw[steps[k].range] }
        return candidate + raw[steps[steps.count - 1].end...]
    }
}

extension ShrinkPass {
    /// Replaces a step's action by a simpler one (old arguments or zeros, realigned), alone or
    /// with an earlier step deleted.
    package static let replaceStepAction = ShrinkPass("replace-step-action", .expensive) { $0.replaceStepActions() }
    /// Moves a step after the next one or to the end, alone or with another step deleted.
    package static let moveStep = ShrinkPass("move-step", .expensive) { $0.moveSteps() }
    /// Deletes a step and sets one later small argument choice to another value (a reference the deletion shifted).
    package static let deleteStepRepoint = ShrinkPass("delete-step-repoint", .expensive) { $0.deleteStepRepointing() }
}
