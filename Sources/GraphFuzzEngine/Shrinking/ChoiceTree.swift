/// The choices every run of a shrink consumed, as a tree, with how each run ended: a candidate
/// whose choices (clamped to the bounds met on the way) lead to a known end is not run again.
///
/// A candidate often differs from an earlier run only in choices that run never read (past its
/// end) or that clamp to the same value; Hypothesis' `DataTree` makes the same saving. Runs must
/// be deterministic functions of their choices. The tree stops growing at `maxNodes`.
struct ChoiceTree {
    /// How a run ended, as far as the shrinker cares.
    enum End: Equatable {
        case passed, rejected, failedOtherwise
    }

    private struct Edge: Hashable {
        var node: Int32
        var value: UInt64
    }

    private var bounds: [UInt64?] = [nil]
    private var edges: [Edge: Int32] = [:]
    private var ends: [Int32: End] = [:]
    private let maxNodes: Int

    init(maxNodes: Int = 200_000) { self.maxNodes = maxNodes }

    /// How a run of `candidate` would end, if an earlier run already took the same path.
    func end(of candidate: [UInt64]) -> End? {
        var node: Int32 = 0
        var k = 0
        while true {
            if let end = ends[node] { return end }
            guard let bound = bounds[Int(node)] else { return nil }
            let value = Swift.min(k < candidate.count ? candidate[k] : 0, bound)
            guard let next = edges[Edge(node: node, value: value)] else { return nil }
            node = next
            k += 1
        }
    }

    /// Records a run: the choices it consumed, their bounds, and how it ended.
    mutating func record(choices: [UInt64], bounds choiceBounds: [UInt64], end: End) {
        guard choices.count == choiceBounds.count, bounds.count + choices.count <= maxNodes else { return }
        var node: Int32 = 0
        for (value, bound) in zip(choices, choiceBounds) {
            if ends[node] != nil { return }
            if let known = bounds[Int(node)], known != bound { return }
            bounds[Int(node)] = bound
            let edge = Edge(node: node, value: value)
            if let next = edges[edge] {
                node = next
            } else {
                let next = Int32(bounds.count)
                bounds.append(nil)
                edges[edge] = next
                node = next
            }
        }
        if bounds[Int(node)] == nil { ends[node] = end }
    }
}
