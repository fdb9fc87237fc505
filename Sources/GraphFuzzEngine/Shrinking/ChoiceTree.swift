/// The choices every run of a shrink consumed, as a tree, with how each run ended and what it consumed: a
/// candidate whose choices (clamped to the bounds met on the way) lead to a known end is not run again, and a pass
/// that only needs to see what such a candidate consumes (to realign what follows) reads it here.
///
/// A candidate often differs from an earlier run only in choices that run never read (past its
/// end) or that clamp to the same value; Hypothesis' `DataTree` makes the same saving. Runs must
/// be deterministic functions of their choices. The tree stops growing at `maxNodes`.
///
/// Every candidate walks the tree and every run is recorded in it, a choice at a time, so the nodes are arrays indexed
/// by node number and a node's children a list through `firstChild` and `nextSibling` (a choice rarely has more than a
/// few values tried): a step down is a few array reads, not a hash of the edge.
struct ChoiceTree {
    /// How a run ended, as far as the shrinker cares.
    enum End: Equatable {
        case passed, rejected, failedOtherwise
    }

    /// Per node: the bound of the choice a run made there (nil: no run consumed a choice at the node), the value of
    /// the choice that leads to the node from its parent, its first child and its next sibling (-1: none), and how a
    /// run that ended there ended.
    private var bounds: [UInt64?] = [nil]
    private var values: [UInt64] = [0]
    private var firstChild: [Int32] = [-1]
    private var nextSibling: [Int32] = [-1]
    private var ends: [End?] = [nil]
    /// What the run that ended at a node consumed (its choices, bounds and spans).
    private var runs: [Int32: Consumed] = [:]
    private let maxNodes: Int

    init(maxNodes: Int = 200_000) { self.maxNodes = maxNodes }

    /// How a run of `candidate` would end, if an earlier run already took the same path.
    func end(of candidate: [UInt64]) -> End? {
        endNode(of: candidate).flatMap { ends[Int($0)] }
    }

    /// What a run of `candidate` would consume, if an earlier run that was recorded with its consumption
    /// (`record(_:end:)`) already took the same path: the same choices, bounds and spans, as runs are deterministic.
    func consumed(by candidate: [UInt64]) -> Consumed? {
        endNode(of: candidate).flatMap { runs[$0] }
    }

    /// The child of `node` reached by choosing `value` there, if a run made that choice.
    private func child(of node: Int32, _ value: UInt64) -> Int32? {
        var child = firstChild[Int(node)]
        while child >= 0 {
            if values[Int(child)] == value { return child }
            child = nextSibling[Int(child)]
        }
        return nil
    }

    /// The node where a run of `candidate` ends, if an earlier run already took the same path.
    private func endNode(of candidate: [UInt64]) -> Int32? {
        var node: Int32 = 0
        var k = 0
        while true {
            if ends[Int(node)] != nil { return node }
            guard let bound = bounds[Int(node)] else { return nil }
            let value = Swift.min(k < candidate.count ? candidate[k] : 0, bound)
            guard let next = child(of: node, value) else { return nil }
            node = next
            k += 1
        }
    }

    /// Records a run: what it consumed and how it ended.
    mutating func record(_ consumed: Consumed, end: End) {
        guard let node = record(choices: consumed.choices, bounds: consumed.bounds, end: end) else { return }
        runs[node] = consumed
    }

    /// Records the path of a run: the choices it consumed, their bounds, and how it ended. Returns the node where
    /// it ended, if it was recorded there.
    private mutating func record(choices: [UInt64], bounds choiceBounds: [UInt64], end: End) -> Int32? {
        guard choices.count == choiceBounds.count, bounds.count + choices.count <= maxNodes else { return nil }
        var node: Int32 = 0
        for (value, bound) in zip(choices, choiceBounds) {
            if ends[Int(node)] != nil { return nil }
            if let known = bounds[Int(node)], known != bound { return nil }
            bounds[Int(node)] = bound
            if let next = child(of: node, value) {
                node = next
            } else {
                let next = Int32(bounds.count)
                bounds.append(nil)
                values.append(value)
                firstChild.append(-1)
                nextSibling.append(firstChild[Int(node)])
                ends.append(nil)
                firstChild[Int(node)] = next
                node = next
            }
        }
        guard bounds[Int(node)] == nil, ends[Int(node)] == nil else { return nil }
        ends[Int(node)] = end
        return node
    }
}
