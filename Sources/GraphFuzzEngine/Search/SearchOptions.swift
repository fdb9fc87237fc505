/// What a run searches, the same for every target it searches: which cases (seed, runs, first case, shard), how long
/// (a time limit, a shrink budget), how far each case goes (steps), and whether it stops at the first failure. The
/// command line's flags, a check's arguments and a benchmark's settings are read into one; `SearchPlan` resolves it
/// for one target.
package struct SearchOptions: Sendable, Equatable {
    package var seed: UInt64
    /// Test cases to generate: case numbers below this (from `firstCase` on).
    package var runs: Int
    /// The first case number to run (0: the whole run). A case is generated from the seed and its number
    /// alone, so `firstCase: n, runs: n + 1` runs exactly case n of any run of the seed (the CLI's `--case`).
    package var firstCase: Int
    /// Wall-clock budget for the search in seconds (nil: none). Shrinking has its own budget.
    package var timeLimit: Double?
    package var shrinkBudget: ShrinkBudget
    /// Which slice of the cases to run: case i runs when i % shardCount == shardIndex.
    package var shardIndex: Int
    package var shardCount: Int
    /// Most steps per case (nil: each target's own, `Target.defaultSteps`).
    package var steps: Int?
    /// Stop at the first failing case (time to first failure: benchmarks, tests); otherwise every case runs and every
    /// failure signature is reported.
    package var stopAtFirstFailure: Bool

    package init(seed: UInt64, runs: Int = SearchLoop.defaultRuns, timeLimit: Double? = nil, shrinkBudget: ShrinkBudget = ShrinkBudget(),
                 shardIndex: Int = 0, shardCount: Int = 1, firstCase: Int = 0, steps: Int? = nil, stopAtFirstFailure: Bool = false) {
        self.seed = seed
        self.runs = runs
        self.firstCase = firstCase
        self.timeLimit = timeLimit
        self.shrinkBudget = shrinkBudget
        self.shardIndex = shardIndex
        self.shardCount = shardCount
        self.steps = steps
        self.stopAtFirstFailure = stopAtFirstFailure
    }
}

/// One search's parameters, resolved once: the target and mutant, the options, and the steps per case (the options'
/// or the target's own). Every result of the search carries it, and every report reads it from there.
package struct SearchPlan: Sendable, Equatable {
    /// The target's name (a property's search: what is searched).
    package var target: String
    package var mutant: String?
    package var options: SearchOptions
    /// Most steps per case: `options.steps`, else the target's own.
    package var maxSteps: Int
    /// The target's own steps per case (a reproduce line names `maxSteps` when it differs; nil: no target).
    package var defaultSteps: Int?
    /// The rules the mutant declares it may break (empty for production code).
    package var declaredRules: [String]

    /// The search of `target` (production code for a nil `mutant`) with `options`.
    package init(_ target: Target, mutant: String? = nil, options: SearchOptions) {
        self.target = target.name
        self.mutant = mutant
        self.options = options
        maxSteps = options.steps ?? target.defaultSteps
        defaultSteps = target.defaultSteps
        declaredRules = mutant.flatMap { target.mutant(named: $0)?.rules } ?? []
    }

    /// The search of something that is not a target (a property's test function), named `subject`.
    package init(subject: String, options: SearchOptions) {
        target = subject
        mutant = nil
        self.options = options
        maxSteps = options.steps ?? 0
        defaultSteps = nil
        declaredRules = []
    }

    package var seed: UInt64 { options.seed }

    /// `fault` naming what this plan searches (the target and mutant; a property's search names none).
    package func naming(_ fault: CaseHarnessFault) -> CaseHarnessFault {
        guard defaultSteps != nil else { return fault }
        var fault = fault
        fault.target = target
        fault.mutant = mutant
        return fault
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    package var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
