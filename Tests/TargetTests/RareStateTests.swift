@testable import GraphTarget
import Testing

/// The stories reach the rare states they were written for (`graph-fuzz bench --reach` measures the default budget).
@Suite("rare states")
struct RareStateTests {
    @Test("500 cases of seed 1 reach a fetch after a pending change, and a killed save with a pending delete")
    func storiesReachTheirStates() {
        let counts = RareState.measure(seeds: [1], runs: 500, maxSteps: 30)[0]
        let reached = Dictionary(uniqueKeysWithValues: zip(RareState.all.map(\.name), counts))
        #expect(reached["fetch by attribute after a pending change to a saved model"] ?? 0 > 0, "\(reached)")
        #expect(reached["killed save with a pending delete of a saved row"] ?? 0 > 0, "\(reached)")
    }
}
