/// The passes that delete: whole steps, element spans, blocks of choices, and a span together
/// with a change to a neighbouring choice.
extension Shrinker {
    /// Deletes blocks of whole state-machine steps: halving block sizes from half the steps down to
    /// adjacent pairs and single steps, sliding from the last step to the first.
    func deleteSteps() -> Bool {
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

    /// Deletes, from the last step to the first, each abandoned attempt of a step: a `.command` span
    /// followed, in the same step, by another one (the action drawn there found no arguments, so
    /// the step drew again), together with the arguments it drew up to the next `.command` span.
    /// Deleting it changes nothing in this run; but once an earlier step is deleted the attempt may
    /// succeed (the model then holds what its arguments need) and the later steps no longer replay
    /// as they were, so a deletion of earlier steps only works after this one.
    func deleteAbandonedCommands() -> Bool {
        var progress = false
        var s = stepSpans().count - 1
        while s >= 0 && !outOfBudget {
            defer { s -= 1 }
            let steps = stepSpans()
            guard s < steps.count else { continue }
            let step = steps[s]
            let commands = spans.filter { $0.label == .command && $0.count > 0 && $0.start >= step.start && $0.end <= step.end }
            guard commands.count > 1 else { continue }
            // The first attempt of the earliest pair first: once it goes, the next becomes the first.
            for k in stride(from: commands.count - 2, through: 0, by: -1) where !outOfBudget {
                if consider(removing(commands[k].start..<commands[k + 1].start)) {
                    progress = true
                    break
                }
            }
        }
        return progress
    }

    /// Deletes each element span (a list element with its "more" flag, a sized array's element),
    /// from the last to the first. When that alone fails, it also lowers the choice that sizes the
    /// list (drawn just before it) or the choice that an earlier shrink found must shrink with a
    /// deleted element (`partnerFromEnd`, a size drawn after the list), and, when the deletion broke an
    /// assumption, the deletion re-indexed (`reindexed`). After a deletion succeeds
    /// it deletes runs of the elements before it, 1, 2, 4, … at a time (Hypothesis'
    /// `find_integer`), so a long list loses its unneeded elements in a few runs.
    func deleteElements() -> Bool {
        var progress = truncateLists()
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            if i < spans.count, spans[i].label == .element, spans[i].count > 0 {
                let span = spans[i], size = sizeChoice(of: i)
                if considerDeletion(removing(span.range), base: raw, start: span.start, count: 1, sizedBy: size, siblings: siblings(of: i)) {
                    progress = true
                    deleteRunBefore(span.start, depth: span.depth, sizedBy: size)
                }
            }
            i -= 1
        }
        return progress
    }

    /// Cuts each list of four or more elements to its first k elements, for the smallest k that
    /// still fails: k = 1, 2, 4, … while that passes, then a binary search. A failure seldom needs
    /// a random list's every element; when it needs a few, this finds them in about twice the bits
    /// of their count, where deleting elements one run at a time from the end costs about twice
    /// the bits of the list's length and certifies each element separately.
    func truncateLists() -> Bool {
        var progress = false
        var i = 0
        while i < spans.count && !outOfBudget {
            defer { i += 1 }
            guard spans[i].label == .list, listElements(i).count >= 4 else { continue }
            let list = spans[i]
            // Keeps the first k elements of the list (found again in the current spans).
            func keep(_ k: Int) -> Bool {
                guard let index = spans.firstIndex(where: { $0.label == .list && $0.start == list.start && $0.depth == list.depth }) else { return false }
                let elements = listElements(index)
                guard k < elements.count, elements.last!.end <= raw.count,
                      let first = spans.firstIndex(where: { $0 == elements[k] }) else { return false }
                let cut = elements[k].start..<elements.last!.end
                return considerDeletion(removing(cut), base: raw, start: cut.lowerBound, count: cut.count == 0 ? 0 : elements.count - k,
                                        sizedBy: sizeChoice(of: first))
            }
            let n = listElements(i).count
            var low = 0, high = 0
            var k = 1
            while k < n && !outOfBudget {
                if keep(k) { high = k; break }
                // Discarded even with the size or partner lowered: the elements are tied to each
                // other (an assumption over the list); deleting single elements does better.
                if lastDiscarded { break }
                low = k
                k *= 2
            }
            guard high > 0 else { continue }
            progress = true
            while low + 1 < high && !outOfBudget {
                let mid = (low + high) / 2
                if keep(mid) { high = mid } else { low = mid }
            }
        }
        return progress
    }

    /// The element spans (holding more than their flag) directly inside the list span at `index`.
    private func listElements(_ index: Int) -> [Span] {
        let list = spans[index]
        var result: [Span] = []
        var j = index + 1
        while j < spans.count && spans[j].start < list.end {
            if spans[j].label == .element && spans[j].depth == list.depth + 1 && spans[j].count > 1 { result.append(spans[j]) }
            j += 1
        }
        return result
    }

    /// The elements of a list as they are in the best sequence, with the bounds of its choices: what a
    /// discarded deletion re-indexes (`reindexed`).
    struct ListSiblings {
        /// The list's element spans that hold more than their flag.
        var elements: [Span]
        var bounds: [UInt64]
    }

    /// The elements of the list that holds the element span `spans[index]`; nil for a list's end flag.
    private func siblings(of index: Int) -> ListSiblings? {
        let element = spans[index]
        guard element.count > 1,
              let list = spans[..<index].lastIndex(where: { $0.label == .list && $0.depth == element.depth - 1 && $0.range.contains(element.start) })
        else { return nil }
        return ListSiblings(elements: listElements(list), bounds: bounds)
    }

    /// After the element ending at `end` was deleted: deletes the runs of sibling elements just
    /// before `end`, growing the run 1, 2, 4, … while that fails, then binary-searching.
    private func deleteRunBefore(_ end: Int, depth: Int, sizedBy size: Int?) {
        // The contiguous run of element spans at `depth` ending at `end`.
        var run: [Span] = []
        for span in spans.reversed() where span.label == .element && span.depth == depth && span.end <= end && span.count > 0 {
            guard span.end == (run.first?.start ?? end) else { break }
            run.insert(span, at: 0)
        }
        guard !run.isEmpty else { return }
        let base = raw
        _ = Self.findInteger(limit: run.count) { k in
            guard !self.outOfBudget else { return false }
            let first = run[run.count - k].start
            // Candidates come from `base` (the sequence when the run was measured); one that is
            // not simpler than the current best is not run.
            var candidate = base
            candidate.removeSubrange(first..<end)
            // Not re-indexed: a re-indexed candidate for each run that breaks an assumption cost more
            // runs (index_cycle) than the runs it deleted saved.
            return self.considerDeletion(candidate, base: base, start: first, count: k, sizedBy: size)
        }
    }

    /// Runs `deleted` (`base` without `count` elements from `start`); when that alone is discarded
    /// or passes, runs it again with the size choice (before `start`) lowered by `count`, and, if
    /// the deletion was discarded, with the learnt partner choice (after the deletion) lowered too,
    /// then re-indexed (`reindexed`) when `siblings` (the list's elements in `base`) are known.
    private func considerDeletion(_ deleted: [UInt64], base: [UInt64], start: Int, count: Int, sizedBy size: Int?,
                                  siblings: ListSiblings? = nil) -> Bool {
        if consider(deleted) { return true }
        if let size, size < start, base[size] >= UInt64(count) {
            var candidate = deleted
            candidate[size] -= UInt64(count)
            if consider(candidate) { return true }
        }
        guard discarded.contains(ChoiceSequence(deleted)) else { return false }
        if let partner = partnerFromEnd {
            let position = deleted.count - partner
            if position >= start, position < deleted.count, deleted[position] >= UInt64(count) {
                var candidate = deleted
                candidate[position] -= UInt64(count)
                if consider(candidate) { return true }
            }
        } else if base == raw && raw.count - deleted.count > 1 && learnPartner(deleted, start: start, count: count) {
            // A deleted end flag (one choice) shifts what follows; only a real element teaches a partner.
            return true
        }
        guard let siblings, let candidate = Self.reindexed(deleted, base: base, start: start, count: count, siblings: siblings)
        else { return false }
        return consider(candidate)
    }

    /// `deleted` (`base` without `count` elements of a list, from choice `start`) with each value of
    /// the list's other elements (`siblings`, in `base`: a choice with bound above 1) that points past the
    /// deleted elements (at least the first one's position in the list plus `count`) lowered by
    /// `count`: elements that index into their own list (references by position) still point at the
    /// same elements. Nil when no value changes.
    static func reindexed(_ deleted: [UInt64], base: [UInt64], start: Int, count: Int, siblings: ListSiblings) -> [UInt64]? {
        let removed = base.count - deleted.count
        guard removed > 0, count > 0, siblings.bounds.count == base.count else { return nil }
        let past = UInt64(siblings.elements.filter { $0.end <= start }.count + count)
        var candidate = deleted
        var changed = false
        for element in siblings.elements where element.end <= start || element.start >= start + removed {
            for j in element.range where j < base.count && siblings.bounds[j] > 1 && base[j] >= past {
                candidate[j < start ? j : j - removed] = base[j] - UInt64(count)
                changed = true
            }
        }
        return changed ? candidate : nil
    }

    /// The first time a deletion is discarded and no partner is known: lowers each value (bound
    /// above 1) among the few choices after the deletion by the number of elements deleted, and
    /// remembers the one that makes the deletion fail as the partner (a size drawn after its list).
    /// Once per shrink, so a problem without such a partner pays for the search only once.
    /// `deleted` is the best sequence (`raw`) with choices removed before the first choice looked at.
    private func learnPartner(_ deleted: [UInt64], start: Int, count: Int) -> Bool {
        guard !partnerSearched else { return false }
        partnerSearched = true
        var tried = 0
        for j in start..<Swift.min(deleted.count, start + Self.partnerWindow) where !outOfBudget && tried < Self.partnerTries {
            let original = j + (raw.count - deleted.count)
            guard original < raw.count, bounds[original] > 1, deleted[j] >= UInt64(count), deleted[j] > 0 else { continue }
            tried += 1
            var candidate = deleted
            candidate[j] -= UInt64(count)
            let (accepted, draw) = evaluate(candidate)
            // Failing, or passing rather than discarded: lowering this choice met the assumption.
            if accepted || (draw != nil && !discarded.contains(ChoiceSequence(candidate))) {
                partnerFromEnd = candidate.count - j
                return accepted
            }
        }
        return false
    }

    static let partnerWindow = 8
    static let partnerTries = 3

    /// The largest k in 1...limit for which `f` holds, trying 1, 2, 4, … then binary-searching
    /// (Hypothesis' `find_integer`); 0 if `f(1)` fails. `f` is assumed monotone.
    static func findInteger(limit: Int, _ f: (Int) -> Bool) -> Int {
        guard limit >= 1, f(1) else { return 0 }
        var low = 1, high = 2
        while high <= limit && f(high) { low = high; high *= 2 }
        if high > limit {
            if low == limit || f(limit) { return limit }
            high = limit
        }
        while low + 1 < high {
            let mid = (low + high) / 2
            if f(mid) { low = mid } else { high = mid }
        }
        return low
    }

    /// The index of the choice that sizes the list holding element span `index`, if the list
    /// starts right after the choices of the int that opens an enclosing bind
    /// (`int(in:).flatMap { array(count: $0) }`: the size's magnitude, then its sign).
    private func sizeChoice(of index: Int) -> Int? {
        let element = spans[index]
        guard let list = spans[..<index].last(where: { $0.label == .list && $0.depth == element.depth - 1 && $0.start <= element.start }),
              list.start > 1,
              spans[..<index].contains(where: { $0.label == .bind && $0.start == list.start - 2 && $0.depth == list.depth - 1 })
        else { return nil }
        return list.start - 2
    }

    /// Deletes blocks of two choices that start a span other than an integer's, a filter's try or a
    /// declared parameter: this joins neighbouring lists (a list's end flag and the next list's start)
    /// and drops a branch's choice with the flag after it. (An integer's two choices deleted only
    /// re-read the choices after them as that integer, and a try's first two the rest of the try; the
    /// tries a filter rejected are remove-discarded's; a parameter of the configuration is one value of
    /// a fixed list; single choices deleted never improved a challenge problem.)
    func deleteBlocks() -> Bool {
        var progress = false
        let size = 2
        var i = raw.count - size
        while i >= 0 && !outOfBudget {
            if i + size <= raw.count, spans.contains(where: { $0.start == i && $0.count > 0 }),
               !spans.contains(where: { $0.start == i && ($0.label == .value || $0.label == .attempt || $0.label == .parameter) }),
               consider(removing(i..<(i + size))) { progress = true }
            i -= 1
        }
        return progress
    }

    /// Deletes a span and, in the same candidate, lowers a choice near it, for the cases where
    /// the deletion alone leaves a later choice meaningless:
    /// - a state-machine step: the next step's command choice (its `.command` span's first choice)
    ///   goes to each smaller value, that step realigned, so a later step that needed the deleted
    ///   one's object can become a simpler command that does not;
    /// - else a state-machine step with one choice of the step before it lowered (to 0, or one lower);
    /// - an element whose deletion alone was discarded (an assumption tied it to other values):
    ///   each value (bound above 1) within `window` choices after it goes one lower — a size drawn
    ///   after the list; the one that works becomes the partner delete-elements lowers with later
    ///   deletions (`partnerFromEnd`) — then all values either side one lower at once (indices past
    ///   the deleted element), then each value before it one lower, then each to 0 (an index that
    ///   pointed at the last element).
    func deleteSpanLoweringNeighbour() -> Bool {
        if deleteStepLoweringNextCommand() || deleteStepLoweringPreviousChoice() { return true }
        let window = 8
        var i = spans.count - 1
        while i >= 0 && !outOfBudget {
            defer { i -= 1 }
            guard i < spans.count, spans[i].label == .element, spans[i].count > 0, spans[i].end <= raw.count else { continue }
            let span = spans[i]
            let deleted = removing(span.range)
            if !discarded.contains(ChoiceSequence(deleted)) {
                // Not tried yet (or it passed, or failed differently): lowering a neighbour is for
                // deletions that broke an assumption.
                if consider(deleted) { return true }
                if !discarded.contains(ChoiceSequence(deleted)) { continue }
            }
            let neighbours = Array(Swift.max(0, span.start - window)..<span.start) + Array(span.end..<Swift.min(raw.count, span.end + window))
            // First each value after it one lower (a size drawn after its list); one that works is
            // remembered as the deletion's partner, which delete-elements then lowers by itself.
            for j in neighbours where j >= span.end && !outOfBudget {
                guard j < raw.count, raw[j] > 0, bounds[j] > 1 else { continue }
                var candidate = deleted
                candidate[j - span.count] -= 1
                if consider(candidate) {
                    partnerFromEnd = candidate.count - (j - span.count)
                    return true
                }
            }
            // Then every value near it one lower at once (indices past a deleted element shift down),
            // then each value before it one lower, then each to 0.
            var shifted = deleted
            for j in neighbours where raw[j] > 0 && bounds[j] > 1 { shifted[j < span.start ? j : j - span.count] -= 1 }
            if shifted != deleted, consider(shifted) { return true }
            let earlier = neighbours.filter { $0 < span.start }.map { ($0, raw[$0] &- 1) }
            for (j, value) in earlier + neighbours.map({ ($0, UInt64(0)) }) where !outOfBudget {
                guard j < raw.count, raw[j] > 0, value < raw[j] else { continue }
                var candidate = deleted
                candidate[j < span.start ? j : j - span.count] = value
                if consider(candidate) { return true }
            }
        }
        return false
    }

    /// Deletes a step and, in the same candidate, lowers one choice of the step before it (to 0, then
    /// one lower), so that step does what the deleted one added: a create in the context a later
    /// insert put its object in.
    private func deleteStepLoweringPreviousChoice() -> Bool {
        var i = stepSpans().count - 1
        while i >= 1 && !outOfBudget {
            defer { i -= 1 }
            let steps = stepSpans()
            guard i < steps.count else { continue }
            let previous = steps[i - 1], deleted = steps[i]
            // The step's first choice is its continue flag: lowering it would end the case there.
            for j in (previous.start + 1)..<previous.end where j < raw.count && raw[j] > 0 && !outOfBudget {
                for value in raw[j] > 1 ? [0, raw[j] - 1] : [0] where !outOfBudget {
                    var candidate = raw
                    candidate[j] = value
                    candidate.removeSubrange(deleted.range)
                    if consider(candidate) { return true }
                }
            }
        }
        return false
    }

    /// For each step but the last (the last first): the candidate without it and with the next step's action (its
    /// `.command` span's first choice) at each smaller value, the next step's other choices as they were; when that
    /// does not fail as it is, the next step realigned (`realigned`): a simpler action reads fewer arguments, and the
    /// old ones left over would otherwise be read as the steps after it.
    private func deleteStepLoweringNextCommand() -> Bool {
        var i = stepSpans().count - 2
        while i >= 0 && !outOfBudget {
            defer { i -= 1 }
            let steps = stepSpans()
            guard i + 1 < steps.count else { continue }
            let deleted = steps[i], next = steps[i + 1]
            guard let command = spans.first(where: { $0.label == .command && $0.start >= next.start && $0.end <= next.end && $0.count > 0 }),
                  command.start < raw.count, raw[command.start] > 0, next.end <= raw.count else { continue }
            let decision = command.start
            for value in 0..<raw[decision] where !outOfBudget {
                var candidate = raw
                candidate[decision] = value
                candidate.removeSubrange(deleted.range)
                if realigned(candidate, stepAt: next.start - deleted.count, depth: next.depth, followedByChoicesFrom: next.end) { return true }
            }
        }
        return false
    }
}
