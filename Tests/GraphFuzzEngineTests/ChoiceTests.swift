import GraphFuzzEngine
import Testing

@Suite("Choices and generators")
struct ChoiceTests {
    @Test("SplitMix64 matches the reference outputs for seed 0")
    func splitMixReference() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("bounded draws stay in bounds and are unbiased enough to hit every value")
    func boundedDraws() {
        var rng = SplitMix64(seed: 7)
        var seen = Array(repeating: 0, count: 6)
        for _ in 0..<6000 { seen[Int(rng.next(upTo: 5))] += 1 }
        #expect(seen.allSatisfy { $0 > 800 && $0 < 1200 })
    }

    @Test("a replayed draw clamps recorded values to the bound and returns 0 once they run out")
    func replayClampsAndPads() {
        let draw = Draw(replaying: ChoiceSequence([9, 3]))
        #expect(draw.choose(upTo: 5) == 5)
        #expect(draw.choose(upTo: 5) == 3)
        #expect(draw.choose(upTo: 5) == 0)
        #expect(draw.choices == [5, 3, 0])
    }

    @Test("a byte buffer drives the same generators, big-endian, and pads with 0")
    func bytesSource() {
        let draw = Draw(.bytes([0x01, 0x02, 0x07]))
        #expect(draw.choose(upTo: 0xFFFF) == 0x0102)
        #expect(draw.choose(upTo: 3) == 3)
        #expect(draw.choose(upTo: 255) == 0)
    }

    @Test("the same seed generates the same values")
    func determinism() {
        let gen = Gen<Int>.int(in: -1000...1000).list()
        let a = (0..<50).map { gen.generate(Draw(seed: UInt64($0))) }
        let b = (0..<50).map { gen.generate(Draw(seed: UInt64($0))) }
        #expect(a == b)
        #expect(Set(a.map(\.count)).count > 3)
    }

    @Test("replaying a recorded sequence reproduces the value")
    func replayReproduces() {
        let gen = Gen<String>.string(alphabet: ["a", "b", "c"]).array(count: 0...5)
        for seed in UInt64(1)...50 {
            let draw = Draw(seed: seed)
            let value = gen.generate(draw)
            #expect(gen.generate(Draw(replaying: draw.sequence)) == value)
        }
    }

    @Test("integers respect their range, including ranges that exclude zero", arguments: [
        -5...5, 3...9, -9 ... -3, Int(Int16.min)...Int(Int16.max), Int.min...Int.max,
    ])
    func integerRanges(_ range: ClosedRange<Int>) {
        for seed in UInt64(0)..<500 {
            #expect(range.contains(Draw(seed: seed).int(in: range)))
        }
        #expect(Draw(replaying: ChoiceSequence([])).int(in: range) == (range.contains(0) ? 0 : (range.lowerBound > 0 ? range.lowerBound : range.upperBound)))
    }

    @Test("filter rejects the case after its tries run out instead of failing it")
    func filterRejects() {
        let draw = Draw(seed: 1)
        _ = Gen<Int>.int(in: 0...10).filter(maxTries: 3) { $0 > 100 }.generate(draw)
        #expect(draw.isRejected)
    }

    @Test("filter records each try as an attempt span and marks the ones it rejected discarded")
    func filterMarksRejectedTries() {
        let draw = Draw(replaying: ChoiceSequence([3, 5, 40, 7]))
        let value = Gen<UInt64> { $0.choose(upTo: 100) }.filter { $0 >= 10 }.generate(draw)
        #expect(value == 40)
        let tries = draw.spans.filter { $0.label == .attempt }
        #expect(tries.map(\.range) == [0..<1, 1..<2, 2..<3])
        #expect(tries.map(\.isDiscarded) == [true, true, false])
        #expect(!draw.isRejected)
    }

    @Test("shortlex order: shorter is simpler, then lexicographically smaller")
    func shortlex() {
        #expect(ChoiceSequence([5]).isSimpler(than: ChoiceSequence([0, 0])))
        #expect(ChoiceSequence([0, 1]).isSimpler(than: ChoiceSequence([0, 2])))
        #expect(!ChoiceSequence([0, 2]).isSimpler(than: ChoiceSequence([0, 2])))
    }

    @Test("every span label is a value of its own, so a pass that looks for one kind of span never meets another")
    func spanLabelsDistinct() {
        let values = Span.Label.all.map(\.rawValue)
        #expect(Set(values).count == values.count)
        // A schedule is realigned when a decision is lowered; a configuration of parameters is not.
        #expect(Shrinker.realignable(.schedule))
        #expect(!Shrinker.realignable(.parameters))
    }
}
