/// Options for one search: how many cases, how long, and how hard to shrink.
public struct SearchOptions: Sendable, Equatable {
    public var seed: UInt64
    /// Test cases to generate.
    public var runs: Int
    /// Wall-clock budget for the search in seconds (nil: none). Shrinking has its own budget.
    public var timeLimit: Double?
    public var shrinkBudget: ShrinkBudget
    /// Which slice of the cases to run: case i runs when i % shardCount == shardIndex.
    public var shardIndex: Int
    public var shardCount: Int

    public init(seed: UInt64, runs: Int = 100, timeLimit: Double? = nil, shrinkBudget: ShrinkBudget = ShrinkBudget(),
                shardIndex: Int = 0, shardCount: Int = 1) {
        self.seed = seed
        self.runs = runs
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

    public init(cases: Int, rejected: Int, seconds: Double, failure: FoundFailure?) {
        self.cases = cases
        self.rejected = rejected
        self.seconds = seconds
        self.failure = failure
    }
}

/// The search loop over an arbitrary test function: generate cases from the seed, stop at the first
/// failure, shrink it. Case `i` is generated from `SplitMix64.caseSeed(run: seed, case: i)` alone.
public enum Search {
    public static func run(_ options: SearchOptions, test: @escaping (Draw) -> Outcome) -> SearchResult {
        let clock = ContinuousClock()
        let start = clock.now
        let limit = options.timeLimit.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        var cases = 0, rejected = 0
        var index = options.shardIndex
        while index < options.runs {
            if let limit, cases > 0, clock.now >= limit { break }
            let draw = Draw(seed: SplitMix64.caseSeed(run: options.seed, case: index))
            let outcome = test(draw)
            cases += 1
            switch outcome {
            case .pass: break
            case .rejected: rejected += 1
            case .fail(let failure):
                let shrinker = Shrinker(signature: failure.signature, budget: options.shrinkBudget, test: test)
                let shrink = shrinker.shrink(draw.sequence)
                let final = test(Draw(replaying: shrink.sequence)).failure ?? failure
                let seconds = (clock.now - start).seconds
                return SearchResult(cases: cases, rejected: rejected, seconds: seconds,
                                    failure: FoundFailure(caseIndex: index, original: draw.sequence, shrunk: shrink.sequence,
                                                          failure: final, shrink: shrink, seconds: seconds))
            }
            index += options.shardCount
        }
        return SearchResult(cases: cases, rejected: rejected, seconds: (clock.now - start).seconds, failure: nil)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
