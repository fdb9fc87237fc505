/// Options for one search: how many cases, how long, and how hard to shrink.
public struct SearchOptions: Sendable, Equatable {
    public var seed: UInt64
    /// Test cases to generate: case numbers below this (from `firstCase` on).
    public var runs: Int
    /// The first case number to run (0: the whole run). A case is generated from the seed and its number
    /// alone, so `firstCase: n, runs: n + 1` runs exactly case n of any run of the seed (the CLI's `--case`).
    public var firstCase: Int
    /// Wall-clock budget for the search in seconds (nil: none). Shrinking has its own budget.
    public var timeLimit: Double?
    public var shrinkBudget: ShrinkBudget
    /// Which slice of the cases to run: case i runs when i % shardCount == shardIndex.
    public var shardIndex: Int
    public var shardCount: Int

    public init(seed: UInt64, runs: Int = SearchLoop.defaultRuns, timeLimit: Double? = nil, shrinkBudget: ShrinkBudget = ShrinkBudget(),
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
public struct FoundFailure: Sendable, Equatable {
    /// The index of the case that failed first.
    public var caseIndex: Int
    public var original: ChoiceSequence
    public var shrunk: ChoiceSequence
    public var failure: Failure
    public var shrink: ShrinkResult
    /// Search plus shrink, wall clock.
    public var seconds: Double

    public init(caseIndex: Int, original: ChoiceSequence, shrunk: ChoiceSequence, failure: Failure, shrink: ShrinkResult,
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
public struct SearchResult: Sendable, Equatable {
    public var cases: Int
    public var rejected: Int
    public var seconds: Double
    public var failure: FoundFailure?
    /// The harness fault that stopped the search (no verdict on the code under test), if any.
    public var harnessFault: CaseHarnessFault?

    public init(cases: Int, rejected: Int, seconds: Double, failure: FoundFailure?, harnessFault: CaseHarnessFault? = nil) {
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
public enum Search {
    public static func run(_ options: SearchOptions, test: @escaping (Draw) -> Outcome) -> SearchResult {
        run(options, executor: FunctionExecutor(test: test))
    }

    /// The search with the cases run by `executor` (a property's small cases first: `PropertyExecutor`).
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
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
