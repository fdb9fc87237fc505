import GraphFuzzEngine
import Testing

@Suite("Generators")
struct GeneratorTests {
    @Test("an integer costs two choices whatever its range, so an earlier bound never shifts later choices",
          arguments: [-5...5, 0...9, 3...9, -9 ... -3, -1...Int.max, 0...Int.max, Int.min...Int.max])
    func integerEncodingIsTwoChoices(_ range: ClosedRange<Int>) {
        for seed in UInt64(0)..<50 {
            let draw = Draw(seed: seed)
            _ = draw.int(in: range)
            #expect(draw.choices.count == 2)
        }
    }

    @Test("a child bounded by its parent reads the same later choices whether the parent is -1 or 0")
    func parentBoundDoesNotShift() {
        let gen = Gen<Int>.int(in: -10...10).flatMap { parent in
            Gen.zip(Gen<Int>.int(in: parent...Int.max), Gen<Int>.int(in: 0...100))
        }
        // parent -1 (magnitude 1, sign 1), child, then 7; lowering the parent's sign to 0 gives 1.
        let negative = gen.generate(Draw(replaying: ChoiceSequence([1, 1, 20, 0, 7, 0])))
        let zero = gen.generate(Draw(replaying: ChoiceSequence([0, 0, 20, 0, 7, 0])))
        #expect(negative.1 == 7)
        #expect(zero.1 == 7)
        #expect(zero.0 == 20)
    }

    @Test("a forced choice (bound 0) is recorded as 0 and uses no randomness")
    func forcedChoice() {
        let a = Draw(seed: 5), b = Draw(seed: 5)
        a.forcedZero()
        #expect(a.choose(upTo: 1000) == b.choose(upTo: 1000))
        #expect(a.choices.first == 0)
        #expect(a.bounds == [0, 1000])
    }

    @Test("Gen<Int>.int covers the full range and shrinks towards 0")
    func fullRangeInt() {
        #expect(Gen<Int>.int.generate(Draw(replaying: ChoiceSequence([]))) == 0)
        #expect(Gen<Int>.int.generate(Draw(replaying: ChoiceSequence([UInt64.max, 0]))) == Int.min)
        #expect(Gen<Int>.int.generate(Draw(replaying: ChoiceSequence([UInt64(Int.max), 0]))) == Int.max)
        #expect(Gen<Int>.int.generate(Draw(replaying: ChoiceSequence([1, 1]))) == -1)
    }

    @Test("zip draws its generators in order")
    func zipInOrder() {
        let gen = Gen.zip(Gen<Int>.int(in: 0...9), Gen<Bool>.bool, Gen<Int>.int(in: 0...9))
        let value = gen.generate(Draw(replaying: ChoiceSequence([3, 0, 1, 8, 0])))
        #expect(value.0 == 3 && value.1 && value.2 == 8)
        let pair = Gen<Int>.int(in: 0...9).zip(Gen<Int>.int(in: 0...9)).generate(Draw(replaying: ChoiceSequence([4, 0, 5, 0])))
        #expect(pair.0 == 4 && pair.1 == 5)
    }

    @Test("assume discards the case instead of retrying")
    func assumeRejects() {
        let gen = Gen<Int>.int(in: 0...10).assume { $0 > 5 }
        let low = Draw(replaying: ChoiceSequence([2, 0]))
        #expect(gen.generate(low) == 2)
        #expect(low.isRejected)
        #expect(low.choices.count == 2)
        let high = Draw(replaying: ChoiceSequence([7, 0]))
        _ = gen.generate(high)
        #expect(!high.isRejected)
        let draw = Draw(replaying: ChoiceSequence([]))
        #expect(!draw.assume(false))
        #expect(draw.isRejected)
    }

    @Test("a list has no cap unless one is given; a given cap holds")
    func listCapIsExplicit() {
        let long = ChoiceSequence(Array(repeating: [1, 0], count: 40).flatMap { $0 } + [0])
        let flag = Gen<UInt64> { $0.choose(upTo: 0) }
        #expect(flag.list().generate(Draw(replaying: long)).count == 40)
        #expect(flag.list(maxCount: 3).generate(Draw(replaying: long)).count == 3)
        for seed in UInt64(0)..<200 {
            #expect(Gen<Int>.int(in: 0...5).list(maxCount: 2, averageCount: 10).generate(Draw(seed: seed)).count <= 2)
        }
    }

    @Test("sized recursion bounds the number of branches, not only the depth")
    func sizedRecursion() {
        indirect enum Tree: Sendable { case leaf, node(Tree, Tree)
            var branches: Int { if case .node(let a, let b) = self { return 1 + a.branches + b.branches }; return 0 }
        }
        let gen = Gen<Tree>.recursive(maxBranches: 5, leaf: .just(.leaf)) { tree in
            Gen { draw in draw.chooseBool(probability: 0.9) ? .node(tree.generate(draw), tree.generate(draw)) : .leaf }
        }
        var largest = 0
        for seed in UInt64(0)..<200 {
            largest = max(largest, gen.generate(Draw(seed: seed)).branches)
        }
        #expect(largest == 5)
        let deep = Gen<Tree>.recursive(maxDepth: 2, maxBranches: 100, leaf: .just(.leaf)) { tree in
            Gen { draw in .node(tree.generate(draw), tree.generate(draw)) }
        }
        #expect(deep.generate(Draw(seed: 1)).branches == 3)
    }
}
