import GraphFuzzEngine
import Testing

/// Runs state machines and targets inside Swift Testing: one call searches with a seed and a
/// budget, and a failure is recorded as a test issue carrying the shrunk report (readable steps
/// and the reproducing Swift test).
public enum GraphFuzzTest {
    /// Searches `target` (or one of its mutants) and records a failure as an issue.
    @discardableResult
    public static func check(_ target: Target, mutant: String? = nil, seed: UInt64 = 1, runs: Int = 200,
                             maxSteps: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> TargetSearchResult {
        let result = target.search(mutant: mutant, options: SearchOptions(seed: seed, runs: runs), maxSteps: maxSteps)
        if result.failure != nil {
            Issue.record(Comment(rawValue: FailureReport(result: result).text), sourceLocation: sourceLocation)
        }
        return result
    }

    /// Searches a state machine of your own and records a failure as an issue.
    @discardableResult
    public static func check<M: StateMachine & Sendable>(_ machine: M, name: String = "machine", seed: UInt64 = 1, runs: Int = 200,
                                                          maxSteps: Int = 30, sourceLocation: SourceLocation = #_sourceLocation) -> TargetSearchResult {
        let target = Target(name: name, summary: "", rules: [], mutants: [], defaultSteps: maxSteps, generatorVersion: "0") { _ in machine }
        return check(target, seed: seed, runs: runs, maxSteps: maxSteps, sourceLocation: sourceLocation)
    }
}
