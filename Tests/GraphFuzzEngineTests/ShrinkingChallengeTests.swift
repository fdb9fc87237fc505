import GraphFuzzEngine
import TestTargets
import Testing

/// The public shrinking challenge: each problem must shrink to its minimal answer for all 100 seeds.
@Suite("Shrinking challenge")
struct ShrinkingChallengeTests {
    @Test(arguments: ShrinkingChallenge.allCases)
    func reachesMinimumForEverySeed(_ challenge: ShrinkingChallenge) {
        var notMinimal: [String] = []
        var notFound: [UInt64] = []
        for seed in UInt64(1)...100 {
            guard let result = challenge.run(seed: seed) else {
                notFound.append(seed)
                continue
            }
            if !result.isMinimal { notMinimal.append("seed \(seed): \(result.counterexample)") }
        }
        #expect(notFound.isEmpty, "\(challenge.rawValue): no counterexample for seeds \(notFound)")
        #expect(notMinimal.isEmpty, "\(challenge.rawValue): not minimal: \(notMinimal.prefix(5))")
    }
}
