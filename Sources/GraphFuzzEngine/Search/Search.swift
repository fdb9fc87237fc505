/// Options for one search: how many cases, how long, and how hard to shrink.
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

    package init(seed: UInt64, runs: Int = SearchLoop.defaultRuns, timeLimit: Double? = nil, shrinkBudget: ShrinkBudget = ShrinkBudget(),
                shardIndex: Int = 0, shardCount: Int = 1, firstCase: Int = 0) {
        self.seed = seed
        self.runs = runs
        self.firstCase = firstCase
        self.timeLimit = timeLimit
        self.shrinkBudget = shrinkBudget
        self.shardIndex = shardIndex
        self.shardCount = shardCount
    }
}

/// A failure found by a search and shrunk.
package struct FoundFailure: Sendable, Equatable {
    /// The index of the case that failed first.
    package var caseIndex: Int
    package var original: ChoiceSequence
    package var shrunk: ChoiceSequence
    package var failure: Failure
    package var shrink: ShrinkResult
    /// Search plus shrink, wall clock.
    package var seconds: Double

    package init(caseIndex: Int, original: ChoiceSequence, shrunk: ChoiceSequence, failure: Failure, shrink: ShrinkResult,
                seconds: Double) {
        self.caseIndex = caseIndex
        self.original = original
        self.shrunk = shrunk
        self.failure = failure
        self.shrink = shrink
        self.seconds = seconds
    }
}

/// What a search did.
package struct SearchResult: Sendable, Equatable {
    package var cases: Int
    package var rejected: Int
    package var seconds: Double
    package var failure: FoundFailure?
    /// The harness fault that stopped the search (no verdict on the code under test), if any.
    package var harnessFault: CaseHarnessFault?

    package init(cases: Int, rejected: Int, seconds: Double, failure: FoundFailure?, harnessFault: CaseHarnessFault? = nil) {
        self.cases = cases
        self.rejected = rejected
        self.seconds = seconds
        self.failure = failure
        self.harnessFault = harnessFault
    }
}

/// A search over an arbitrary test function that stops at the first failure and shrinks it: the
/// one search loop (`SearchLoop`) with the test run in this process. Case `i` is generated from
/// `SplitMix64.caseSeed(run: seed, case: i)` alone.
package enum Search {
    package static func run(_ options: SearchOptions, test: @escaping (Draw) -> Outcome) -> SearchResult {
        run(options, executor: LocalExecutor(test: test))
    }

    /// The search with the cases run by `executor` (a property's small cases first: `CaseOrder.smallFirst`).
    static func run(_ options: SearchOptions, executor: some CaseExecutor) -> SearchResult {
        // A function executor never throws; the loop throws only a harness fault (a test that returned one).
        let loop: LoopResult
        do { loop = try SearchLoop(options: options, stopAtFirstFailure: true).run(executor) } catch {
            return SearchResult(cases: 0, rejected: 0, seconds: 0, failure: nil, harnessFault: error as? CaseHarnessFault)
        }
        let failure = loop.found.first?.failure
        return SearchResult(cases: loop.cases, rejected: loop.rejected, seconds: failure?.seconds ?? loop.seconds, failure: failure)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    package var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
