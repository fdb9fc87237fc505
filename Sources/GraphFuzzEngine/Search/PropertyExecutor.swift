/// Runs a property's cases small first, so that the first failure found is usually a small one and
/// its shrink short (Hypothesis' engine does the same: its zero example first, then, for the first
/// `min(max_examples / 10, 50)` examples, test cases not much larger than the smallest one).
///
/// - Case 0 is the simplest value: every choice 0.
/// - Cases 1 ..< `smallCases` are random, with a size ramp (QuickCheck's): case `i` stops drawing
///   fresh values after `(i + 1)` times as many choices as the simplest value took (later draws read
///   0, the simplest continuation: lists end, numbers are 0).
/// - Later cases are the search's usual ones, generated from `SplitMix64.caseSeed(run:case:)` alone.
///
/// Only properties (`Property.counterexample`) search this way; a state machine's cases are never
/// generated here.
final class PropertyExecutor: CaseExecutor {
    let test: (Draw) -> Outcome
    /// Cases of the small phase (the simplest value and the ramp).
    let smallCases: Int
    /// Choices the simplest value took, once known (at least 1).
    private var simplestLength: Int?

    /// The small phase of a search of `runs` cases: a tenth of them, at most 50 (Hypothesis' cap).
    static func smallCases(runs: Int) -> Int { Swift.min(runs / 10, 50) }

    init(runs: Int, test: @escaping (Draw) -> Outcome) {
        self.test = test
        self.smallCases = Self.smallCases(runs: runs)
    }

    /// The draw case `index` of the run `seed` reads from.
    func draw(case index: Int, seed: UInt64) -> Draw {
        if index == 0 && smallCases > 0 { return Draw(replaying: ChoiceSequence([])) }
        let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
        guard index < smallCases else { return Draw(seed: caseSeed) }
        return Draw(seed: caseSeed, maxChoices: (index + 1) * simplest())
    }

    /// The choices the simplest value takes (every choice 0), at least 1; runs it if case 0 has not.
    private func simplest() -> Int {
        if let simplestLength { return simplestLength }
        let draw = Draw(replaying: ChoiceSequence([]))
        _ = test(draw)
        let length = Swift.max(1, draw.choices.count)
        simplestLength = length
        return length
    }

    private func runCase(_ index: Int, seed: UInt64) -> (outcome: Outcome, draw: Draw) {
        let draw = self.draw(case: index, seed: seed)
        let outcome = test(draw)
        if index == 0 && smallCases > 0 && simplestLength == nil { simplestLength = Swift.max(1, draw.choices.count) }
        return (outcome, draw)
    }

    func run(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool) -> ChunkReport {
        ChunkReport.collect(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure) { index in
            (runCase(index, seed: seed).outcome, 0, nil)
        }
    }

    func run(case index: Int, seed: UInt64) -> (outcome: Outcome, draw: Draw) { runCase(index, seed: seed) }

    func replay(_ sequence: ChoiceSequence) -> (outcome: Outcome, draw: Draw) {
        let draw = Draw(replaying: sequence)
        return (test(draw), draw)
    }
}
