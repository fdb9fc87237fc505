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

    /// Deletes each element span (a list element with its "more" flag, a sized array's element);
    /// when that alone fails and the element's list is sized by the choice just before it, also
    /// lowers that size.
    func deleteElements() -> Bool {
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

    /// Deletes blocks of two and one choices that start a span: this joins neighbouring lists
    /// (a list's end flag and the next list's start) and drops stray flags.
    func deleteBlocks() -> Bool {
        var progress = false
        for size in [2, 1] {
            var i = raw.count - size
            while i >= 0 && !outOfBudget {
                if i + size <= raw.count, spans.contains(where: { $0.start == i && $0.count > 0 }),
                   consider(removing(i..<(i + size))) { progress = true }
                i -= 1
            }
        }
        return progress
    }

    /// Deletes a span and, in the same candidate, lowers a choice near it, for the cases where
    /// the deletion alone leaves a later choice meaningless:
    /// - a state-machine step: the next step's command choice (its `.command` span's first choice)
    ///   goes to each smaller value, with up to two of that step's last choices dropped, so a later
    ///   step that needed the deleted one's object can become a simpler command that does not;
    /// - an element whose deletion alone was discarded (an assumption tied it to other values):
    ///   all values (bound above 1) within `window` choices either side go one lower at once (indices
    ///   past the deleted element), then each non-zero choice there goes to 0 and to one less — a
    ///   size drawn after the list, an index that pointed at the last element.
    func deleteSpanLoweringNeighbour() -> Bool {
        if deleteStepLoweringNextCommand() { return true }
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
            // First every value near it one lower at once (indices past a deleted element shift down).
            var shifted = deleted
            for j in neighbours where raw[j] > 0 && bounds[j] > 1 { shifted[j < span.start ? j : j - span.count] -= 1 }
            if shifted != deleted, consider(shifted) { return true }
            for j in neighbours where raw[j] > 0 && !outOfBudget {
                let position = j < span.start ? j : j - span.count
                for value in Set([0, raw[j] - 1]).sorted() {
                    var candidate = deleted
                    candidate[position] = value
                    if consider(candidate) { return true }
                }
            }
        }
        return false
    }

    private func deleteStepLoweringNextCommand() -> Bool {
        var i = stepSpans().count - 2
        while i >= 0 && !outOfBudget {
            defer { i -= 1 }
            let steps = stepSpans()
            guard i + 1 < steps.count else { continue }
            let deleted = steps[i], next = steps[i + 1]
            guard let command = spans.first(where: { $0.label == .command && $0.start >= next.start && $0.end <= next.end && $0.count > 0 }),
                  command.start < raw.count, raw[command.start] > 0 else { continue }
            let decision = command.start
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
        return false
    }
}
