import GraphFuzzEngine
import Testing

/// A property's search runs small cases first (`Property.search`): the simplest value, then a size
/// ramp over the first `min(runs / 10, 50)` cases, then the search's usual cases.
@Suite("Property search, small cases first")
struct PropertySearchTests {
    /// Lists of 0...1000: three choices an element (more flag, offset, fixed sign), one to end.
    static let lists = Gen<Int>.int(in: 0...1000).list()

    /// The lists the first `runs` cases of a property search with `seed` generate, in case order.
    static func listsSearched(seed: UInt64, runs: Int) -> [[Int]] {
        var seen: [[Int]] = []
        let result = try? Property.search(SearchOptions(seed: seed, runs: runs)) { draw in
            seen.append(lists.generate(draw))
            return .pass
        }
        #expect(result?.failures.isEmpty == true && result?.cases == runs)
        return seen
    }

    @Test("the first case is the simplest value: when it fails, nothing is left to shrink")
    func simplestValueFirst() throws {
        let found = try #require(Property.counterexample(Self.lists, seed: 7, runs: 1000) { _ in false })
        #expect(found.value == [])
        #expect(found.caseIndex == 0)
        #expect(found.shrinkAttempts == 0)
    }

    @Test("case i of the small phase reads at most (i + 1) times the simplest value's choices; later cases are not capped")
    func sizeRamp() {
        let seen = Self.listsSearched(seed: 3, runs: 1000)
        #expect(seen[0] == [])
        // The simplest list takes one choice, so case i reads i + 1 fresh choices: at most one element
        // a started group of three (a more flag read fresh, then zeros: the element 0).
        for i in 1..<50 { #expect(seen[i].count <= (i + 3) / 3, "case \(i): \(seen[i])") }
        #expect(seen[1..<50].contains { $0.count >= 2 }, "the ramp reaches lists of two")
        #expect(seen[50...].contains { $0.count > 50 / 3 }, "after the small phase a list is as long as its generator makes it")
    }

    @Test("the small phase is a tenth of the runs, at most 50; a search of fewer than 10 runs has none")
    func smallPhaseLength() {
        let few = Self.listsSearched(seed: 3, runs: 9)
        let nineteen = Self.listsSearched(seed: 3, runs: 19)
        #expect(nineteen[0] == [], "a small phase of one case: the simplest value")
        #expect(few[0] != [], "no small phase: case 0 is an ordinary case")
        #expect(few[1..<9] == nineteen[1..<9], "past the small phase, case i is the search's usual case i")
        let usual = Self.listsSearched(seed: 3, runs: 1000)
        #expect(usual[1..<19] != nineteen[1..<19], "with 1000 runs the ramp caps these cases")
    }
}
