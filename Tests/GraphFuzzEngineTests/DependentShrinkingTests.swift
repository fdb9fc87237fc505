import GraphFuzzEngine
import Testing

/// Problems where later values depend on earlier ones (DependentProblems.swift): each must reach
/// its known minimum for nearly every seed. scripts/shrink-compare measures seeds 1–200
/// (docs/performance.md); the test runs the first 40 to stay fast.
@Suite("Shrinking with dependent generators")
struct DependentShrinkingTests {
    @Test(arguments: DependentProblem.allCases)
    func reachesMinimum(_ problem: DependentProblem) {
        var found = 0
        var notMinimal: [String] = []
        for seed in UInt64(1)...40 {
            guard let result = problem.run(seed: seed) else { continue }
            found += 1
            if !result.isMinimal { notMinimal.append("seed \(seed): \(result.counterexample)") }
        }
        #expect(found >= 38, "\(problem.rawValue): counterexamples for only \(found) of 40 seeds")
        #expect(notMinimal.count <= 2, "\(problem.rawValue): not minimal: \(notMinimal.prefix(5))")
    }
}
