@testable import GraphFuzzEngine
import Testing

/// The shrink's record of runs (`ChoiceTree`): which candidates lead to a run already made, and what it consumed.
@Suite("ChoiceTree: a candidate that takes a recorded run's path, its choices clamped to the bounds met, is known")
struct ChoiceTreeTests {
    private func run(_ choices: [UInt64], bounds: [UInt64]) -> Consumed {
        Consumed(choices: choices, bounds: bounds, spans: [])
    }

    @Test("a recorded run is known by its choices, by choices past its bounds (clamped) and with choices past its end")
    func knownPaths() {
        var tree = ChoiceTree()
        let failing = run([2, 0, 5], bounds: [3, 1, 9])
        tree.record(failing, end: .failedOtherwise)
        #expect(tree.end(of: [2, 0, 5]) == .failedOtherwise)
        #expect(tree.consumed(by: [2, 0, 5]) == failing)
        // 7 clamps to the first choice's bound, 3: another path than 2's.
        #expect(tree.end(of: [7, 0, 5]) == nil)
        #expect(tree.end(of: [2, 0, 5, 4, 4]) == .failedOtherwise, "choices the run never read change nothing")
        // A value above a bound reads as the bound: a run choosing 3 of at most 3 is met by any larger value.
        let top = run([3, 1], bounds: [3, 1])
        tree.record(top, end: .passed)
        #expect(tree.end(of: [9, 5]) == .passed && tree.consumed(by: [200, 1]) == top)
        // A candidate shorter than a path reads zeros for what it lacks.
        tree.record(run([0, 0], bounds: [3, 4]), end: .rejected)
        #expect(tree.end(of: []) == .rejected && tree.end(of: [0]) == .rejected)
    }

    @Test("runs that share a prefix are told apart where they part, whichever was recorded first")
    func siblings() {
        var tree = ChoiceTree()
        for (value, end) in [(UInt64(4), ChoiceTree.End.passed), (1, .rejected), (6, .failedOtherwise), (0, .passed)] {
            tree.record(run([1, value], bounds: [2, 9]), end: end)
        }
        #expect(tree.end(of: [1, 4]) == .passed && tree.end(of: [1, 1]) == .rejected)
        #expect(tree.end(of: [1, 6]) == .failedOtherwise && tree.end(of: [1, 0]) == .passed)
        #expect(tree.end(of: [1, 5]) == nil && tree.end(of: [0, 4]) == nil && tree.end(of: [2, 4]) == nil)
        #expect(tree.consumed(by: [1, 6])?.choices == [1, 6])
    }

    @Test("a run that contradicts the tree (another bound at a node, an end where a run went on) is not recorded")
    func contradictions() {
        var tree = ChoiceTree()
        tree.record(run([1, 2], bounds: [3, 3]), end: .passed)
        tree.record(run([1, 2], bounds: [3, 5]), end: .rejected)
        #expect(tree.end(of: [1, 2]) == .passed, "the second run met bound 5 where the first met 3")
        tree.record(run([1], bounds: [3]), end: .rejected)
        #expect(tree.end(of: [1]) == nil, "a run consumed a choice past that node: none ended there")
        tree.record(run([1, 2, 0], bounds: [3, 3, 1]), end: .rejected)
        #expect(tree.end(of: [1, 2, 0]) == .passed, "a run ended at [1, 2]: nothing goes on from there")
        #expect(tree.consumed(by: [1, 2])?.bounds == [3, 3])
    }

    @Test("the tree stops growing at its node limit: a run with no room left is not recorded")
    func nodeLimit() {
        var tree = ChoiceTree(maxNodes: 4)
        tree.record(run([1, 1], bounds: [1, 1]), end: .passed)
        #expect(tree.end(of: [1, 1]) == .passed)
        tree.record(run([0, 0], bounds: [1, 1]), end: .rejected)
        #expect(tree.end(of: [0, 0]) == nil, "3 nodes and 2 more choices exceed 4")
        #expect(tree.end(of: [1, 1]) == .passed)
    }
}
