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
    /// The rules the searched mutant declares it may break (empty for production code).
    public var declaredRules: [String]

    public var failure: FoundFailure? { search.failure }

    /// Whether a mutant's failure names a rule the mutant does not declare (a wrong verdict to explain).
    public var isMisattributed: Bool {
        guard mutant != nil, let rule = failure?.failure.rule, !declaredRules.isEmpty else { return false }
        return !declaredRules.contains(rule)
    }

    public init(target: String, mutant: String?, options: SearchOptions, maxSteps: Int, search: SearchResult, steps: Int,
                originalSteps: Int, counterexample: CaseRecord?, declaredRules: [String] = []) {
        self.declaredRules = declaredRules
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
    /// The rules `mutant` declares it may break (empty for production code or an unknown name).
    public func declaredRules(_ mutant: String?) -> [String] {
        mutant.flatMap { self.mutant(named: $0)?.rules } ?? []
    }

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
                                  steps: steps, originalSteps: originalSteps, counterexample: record,
                                  declaredRules: declaredRules(mutant))
    }
}
