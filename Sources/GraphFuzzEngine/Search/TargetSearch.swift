/// A search over one target (production code or a mutant), with the shrunk case described.
public struct TargetSearchResult: Sendable, Equatable {
    public var target: String
    public var mutant: String?
    public var options: SearchOptions
    public var maxSteps: Int
    public var search: SearchResult
    /// Steps run during the search (not counting shrinking).
    public var steps: Int
    /// Steps in the first failing case before shrinking.
    public var originalSteps: Int
    /// The shrunk failing case, re-run with its steps and expectations recorded.
    public var counterexample: CaseRecord?

    public var failure: FoundFailure? { search.failure }

    public init(target: String, mutant: String?, options: SearchOptions, maxSteps: Int, search: SearchResult, steps: Int,
                originalSteps: Int, counterexample: CaseRecord?) {
        self.target = target
        self.mutant = mutant
        self.options = options
        self.maxSteps = maxSteps
        self.search = search
        self.steps = steps
        self.originalSteps = originalSteps
        self.counterexample = counterexample
    }
}

extension Target {
    /// Searches this target for a failure with `options`, at most `maxSteps` steps per case.
    public func search(mutant: String? = nil, options: SearchOptions, maxSteps: Int? = nil) -> TargetSearchResult {
        let machine = self.machine(mutant: mutant)
        let maxSteps = maxSteps ?? defaultSteps
        var steps = 0
        var counting = true
        let result = Search.run(options) { draw in
            let (outcome, count) = machine.run(draw, maxSteps)
            if counting {
                steps += count
                if outcome.failure != nil { counting = false }
            }
            return outcome
        }
        var originalSteps = 0
        var record: CaseRecord?
        if let found = result.failure {
            originalSteps = machine.run(Draw(replaying: found.original), maxSteps).steps
            record = machine.record(found.shrunk, maxSteps)
        }
        return TargetSearchResult(target: name, mutant: mutant, options: options, maxSteps: maxSteps, search: result,
                                  steps: steps, originalSteps: originalSteps, counterexample: record)
    }
}
