import Foundation
import GraphTarget
import Testing

@Suite("graph target on both backends")
struct GraphBackendDifferentialTests {
    /// Cases per seed: 200 here; `GRAPHFUZZ_DIFFERENTIAL_CASES=20000` gives the full count of docs/performance.md.
    static let cases = ProcessInfo.processInfo.environment["GRAPHFUZZ_DIFFERENTIAL_CASES"].flatMap(Int.init) ?? 200

    @Test("memory and SQLite observe the same on every step of the graph target's cases", arguments: [UInt64(1), 2])
    func backendsAgree(seed: UInt64) {
        let report = GraphBackendDifferential.run(seed: seed, cases: Self.cases)
        #expect(report.disagreement == nil, "\(report.disagreement ?? "")")
        #expect(report.cases == Self.cases)
        #expect(report.steps > Self.cases)
    }
}
