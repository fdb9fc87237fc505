/// A property over generated values, for tests that are not state machines.
package enum Property {
    /// A counterexample with the evaluations its shrink took.
    package struct Counterexample<Value> {
        package var value: Value
        package var caseIndex: Int
        package var shrinkAttempts: Int
        package var message: String
    }

    /// The search of a property's test function, small cases first (`CaseOrder.smallFirst`): case 0 is
    /// the simplest value, and the first `min(runs / 10, 50)` cases grow in size. Stops at the first
    /// failure and shrinks it, as `Search.run` does.
    package static func search(_ options: SearchOptions, test: @escaping (Draw) -> Outcome) -> SearchResult {
        Search.run(options, executor: LocalExecutor(order: .smallFirst(runs: options.runs), test: test))
    }

    /// Searches for a value of `gen` for which `holds` is false (or throws), and shrinks it.
    /// `holds` returns nil to discard a value that does not meet the property's assumptions.
    /// Small values come first (`search(_:test:)`), so the first failure found is usually a small one.
    package static func counterexample<Value>(
        _ gen: Gen<Value>, seed: UInt64, runs: Int = 1000, shrinkBudget: ShrinkBudget = ShrinkBudget(),
        _ holds: @escaping (Value) -> Bool?
    ) -> Counterexample<Value>? {
        let test: (Draw) -> Outcome = { draw in
            let value = gen.generate(draw)
            if draw.isRejected { return .rejected }
            switch holds(value) {
            case nil: return .rejected
            case true?: return .pass
            case false?: return .fail(Failure(rule: "property", kind: .mismatch, message: "falsified"))
            }
        }
        let result = search(SearchOptions(seed: seed, runs: runs, shrinkBudget: shrinkBudget), test: test)
        guard let found = result.failure else { return nil }
        let value = gen.generate(Draw(replaying: found.shrunk))
        return Counterexample(value: value, caseIndex: found.caseIndex, shrinkAttempts: found.shrink.attempts,
                              message: found.failure.message)
    }
}
