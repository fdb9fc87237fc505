/// A property over generated values, for tests that are not state machines.
package enum Property {
    /// A counterexample with the evaluations its shrink took.
    package struct Counterexample<Value> {
        package var value: Value
        package var caseIndex: Int
        package var shrinkAttempts: Int
        package var message: String
    }

    /// The search of a property's test function through the one pipeline (`Campaign`), stopping at the first failure
    /// and shrinking it. Its cases come in `order`: by default small cases first (`CaseOrder.smallFirst`), case 0 the
    /// simplest value and the first `min(runs / 10, 50)` growing in size; `.seeded` runs a search's cases. A test
    /// function that returns a harness fault stops the search with no verdict (`RunError.harnessFault`).
    package static func search(_ options: SearchOptions, order: CaseOrder? = nil, test: @escaping (Draw) -> Outcome) throws(RunError) -> SearchRun {
        var options = options
        options.stopAtFirstFailure = true
        let executor = LocalExecutor(order: order ?? .smallFirst(runs: options.runs), stopAtFirstFailure: true, test: test)
        return try Campaign(selection: [], options: options).search(SearchPlan(subject: "property", options: options), executor: executor,
                                                                   target: nil) { _ in }
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
        // The test never returns a harness fault, so the search cannot throw.
        guard let run = try? search(SearchOptions(seed: seed, runs: runs, shrinkBudget: shrinkBudget), test: test),
              let found = run.failures.first else { return nil }
        let value = gen.generate(Draw(replaying: found.shrunk))
        return Counterexample(value: value, caseIndex: found.caseIndex, shrinkAttempts: found.shrink.attempts,
                              message: found.failure.message)
    }
}
