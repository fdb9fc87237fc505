/// A failure signature found by the search loop, shrunk once from its lowest failing case.
public struct FoundGroup: Sendable, Equatable {
    public var failure: FoundFailure
    /// Cases of the run that failed with this signature (so far, when reported while the search
    /// goes on; final in the loop's result).
    public var caseCount: Int

    public init(failure: FoundFailure, caseCount: Int) {
        self.failure = failure
        self.caseCount = caseCount
    }
}

/// What the search loop did.
public struct LoopResult: Sendable, Equatable {
    public var cases: Int
    public var rejected: Int
    /// Steps run by the search (not counting shrinking).
    public var steps: Int
    /// Search time, not counting shrinking.
    public var seconds: Double
    /// The failures, one per signature, in the order of their lowest failing case.
    public var found: [FoundGroup]
    /// What the cases exercised, added up.
    public var coverage: Coverage
    /// Failures whose lowest case did not fail the same way when run again to shrink it (a
    /// crash or hang that did not come back): never reported as failures of the code under test.
    public var unconfirmed: [FailureSignature]
}

/// The one search loop, whatever runs the cases (`CaseExecutor`): generate the shard's cases from
/// the seed in chunks, group failures by signature (`FailureGroups`), and shrink each group once,
/// from its lowest failing case, after every case ran. The result does not depend on the chunk
/// size or on where the cases ran: groups are merged and ordered by case number.
///
/// With `stopAtFirstFailure` the loop stops at the first failing case (time to first failure,
/// benchmarks); otherwise it runs every case and reports every signature.
public struct SearchLoop {
    /// Cases per target when nobody says otherwise: the CLI's `--runs` and `GraphFuzzTest.check`.
    public static let defaultRuns = 2000

    public var options: SearchOptions
    public var stopAtFirstFailure: Bool
    /// Cases handed to the executor at a time (a time limit is checked between chunks).
    public var chunkSize: Int
    /// Called with each group as soon as it is shrunk.
    public var found: (FoundGroup) -> Void

    public init(options: SearchOptions, stopAtFirstFailure: Bool = false, chunkSize: Int? = nil,
                found: @escaping (FoundGroup) -> Void = { _ in }) {
        self.options = options
        self.stopAtFirstFailure = stopAtFirstFailure
        self.chunkSize = chunkSize ?? (options.timeLimit == nil ? 256 : 8)
        self.found = found
    }

    public func run(_ executor: some CaseExecutor) throws -> LoopResult {
        let clock = ContinuousClock()
        let start = clock.now
        let limit = options.timeLimit.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        var cursor = CaseCursor(runs: options.runs, shardIndex: options.shardIndex, shardCount: options.shardCount)
        var cases = 0, rejected = 0, steps = 0
        var coverage = Coverage()
        var groups = FailureGroups()
        while true {
            if let limit, cases > 0, clock.now >= limit { break }
            guard let chunk = cursor.take(stopAtFirstFailure || limit != nil ? Swift.min(chunkSize, 8) : chunkSize) else { break }
            let report = try executor.run(chunk, seed: options.seed, stopAtFirstFailure: stopAtFirstFailure)
            cases += report.cases
            rejected += report.rejected
            steps += report.steps
            coverage.merge(report.coverage)
            for failing in report.failures { groups.add(case: failing.index, failing.failure) }
            if stopAtFirstFailure && !report.failures.isEmpty { break }
        }
        let searchSeconds = (clock.now - start).seconds
        var found: [FoundGroup] = []
        var unconfirmed: [FailureSignature] = []
        for group in groups.sorted {
            guard let failure = try shrink(group, executor: executor, clock: clock, start: start) else {
                unconfirmed.append(group.signature)
                continue
            }
            let entry = FoundGroup(failure: failure, caseCount: group.count)
            found.append(entry)
            self.found(entry)
        }
        return LoopResult(cases: cases, rejected: rejected, steps: steps, seconds: searchSeconds, found: found, coverage: coverage,
                          unconfirmed: unconfirmed)
    }

    /// Shrinks `group` from its lowest failing case; nil when that case no longer fails the same way.
    private func shrink(_ group: FailureGroups.Group, executor: some CaseExecutor, clock: ContinuousClock,
                        start: ContinuousClock.Instant) throws -> FoundFailure? {
        let (first, original) = try executor.run(case: group.firstCase, seed: options.seed)
        guard first.failure?.signature == group.signature else { return nil }
        var thrown: (any Error)?
        let shrinker = Shrinker(signature: group.signature, budget: options.shrinkBudget, candidates: { sequence in
            guard thrown == nil else { return (.rejected, Draw(replaying: sequence)) }
            do { return try executor.replay(sequence) } catch {
                thrown = error
                return (.rejected, Draw(replaying: sequence))
            }
        })
        let shrink = shrinker.shrink(original.sequence)
        if let thrown { throw thrown }
        let final = try executor.replay(shrink.sequence).outcome.failure ?? group.failure
        return FoundFailure(caseIndex: group.firstCase, original: original.sequence, shrunk: shrink.sequence, failure: final,
                            shrink: shrink, seconds: (clock.now - start).seconds)
    }
}
