/// A failure signature found by the search loop, shrunk once from its lowest failing case.
package struct FoundGroup: Sendable, Equatable {
    package var failure: FoundFailure
    /// Cases of the run that failed with this signature (so far, when reported while the search
    /// goes on; final in the loop's result).
    package var caseCount: Int

    package init(failure: FoundFailure, caseCount: Int) {
        self.failure = failure
        self.caseCount = caseCount
    }
}

/// What the search loop did.
package struct LoopResult: Sendable, Equatable {
    package var cases: Int
    package var rejected: Int
    /// Steps run by the search (not counting shrinking).
    package var steps: Int
    /// Search time, not counting shrinking nor re-running suspected cases.
    package var seconds: Double
    /// Wall time of the whole loop: the search, shrinking and re-running suspected cases.
    package var wallSeconds: Double
    /// The failures, one per signature, in the order of their lowest failing case.
    package var found: [FoundGroup]
    /// What the cases exercised, added up.
    package var coverage: Coverage
    /// Failures whose lowest case did not fail the same way when run again to shrink it (a
    /// crash or hang that did not come back): never reported as failures of the code under test.
    package var unconfirmed: [FailureSignature]
    /// The search stopped early because `SearchEvents.stopRequested` said so (SIGINT, SIGTERM).
    package var interrupted = false
}

/// A search so far: for a progress line, and for describing a failure reported while the search goes on.
package struct SearchProgress: Sendable, Equatable {
    package var cases: Int
    package var rejected: Int
    package var steps: Int
    /// Failure signatures found so far.
    package var failures: Int
    /// Search time so far (shrinking and re-running suspects excluded).
    package var seconds: Double
    /// Seconds left of the time limit, nil without one.
    package var secondsLeft: Double?

    package init(cases: Int, rejected: Int = 0, steps: Int = 0, failures: Int, seconds: Double, secondsLeft: Double? = nil) {
        self.cases = cases
        self.rejected = rejected
        self.steps = steps
        self.failures = failures
        self.seconds = seconds
        self.secondsLeft = secondsLeft
    }
}

/// What a running search reports to its caller, and how it is told to stop.
package struct SearchEvents {
    /// A failure, shrunk, as soon as every case below its lowest failing case has run (so in case
    /// order, while the search goes on), with the search so far. Its `caseCount` is the count so
    /// far; the loop's result holds the final one.
    package var found: (FoundGroup, SearchProgress) -> Void
    /// A crash or hang whose lowest case did not fail the same way when run again to shrink it.
    package var unconfirmed: (FailureGroups.Group) -> Void
    /// The search so far, about every `progressInterval` seconds.
    package var progress: (SearchProgress) -> Void
    package var progressInterval: Double
    /// True once the search must stop (SIGINT, SIGTERM): running cases are abandoned, nothing more
    /// is shrunk, and the loop returns what it has with `interrupted` set.
    package var stopRequested: () -> Bool

    package init(found: @escaping (FoundGroup, SearchProgress) -> Void = { _, _ in },
                unconfirmed: @escaping (FailureGroups.Group) -> Void = { _ in },
                progress: @escaping (SearchProgress) -> Void = { _ in }, progressInterval: Double = 1,
                stopRequested: @escaping () -> Bool = { false }) {
        self.found = found
        self.unconfirmed = unconfirmed
        self.progress = progress
        self.progressInterval = progressInterval
        self.stopRequested = stopRequested
    }
}

/// The one search loop, whatever runs the cases (`CaseExecutor`, in this process or in a child
/// process; `ConcurrentCaseExecutor`, several at once): generate the shard's cases from the seed
/// in chunks, group failures by signature (`FailureGroups`), and shrink each group once, from its
/// lowest failing case, as soon as every case below that one has run. The result does not depend
/// on the chunk size or on where the cases ran: groups are merged and ordered by case number.
///
/// With `stopAtFirstFailure` the loop stops at the first failing case (time to first failure,
/// benchmarks); otherwise it runs every case and reports every signature. A time limit counts
/// search time only: shrinking and re-running suspected cases do not use it up.
@usableFromInline package struct SearchLoop {
    /// Cases per target when nobody says otherwise: the CLI's `--runs` and `GraphFuzzTest.check`.
    @usableFromInline package static let defaultRuns = 2000
    /// A concurrent executor's chunks last about this long, so the loop hears from each worker
    /// rarely and a time limit is overshot by little.
    package static let chunkSeconds = 0.02

    package var options: SearchOptions
    package var stopAtFirstFailure: Bool
    /// Cases handed to a one-at-a-time executor at a time (a time limit is checked between
    /// chunks); a concurrent executor's chunks are sized from the cases per second instead.
    package var chunkSize: Int
    package var events: SearchEvents

    package init(options: SearchOptions, stopAtFirstFailure: Bool = false, chunkSize: Int? = nil, events: SearchEvents = SearchEvents()) {
        self.options = options
        self.stopAtFirstFailure = stopAtFirstFailure
        self.chunkSize = chunkSize ?? (options.timeLimit == nil ? 256 : 8)
        self.events = events
    }

    /// Runs the search. Throws `CaseHarnessFault` when a case's harness could not do its work (the
    /// search stops there: no verdict on the code under test), or what the executor throws.
    package func run(_ executor: some CaseExecutor) throws -> LoopResult {
        let concurrent = executor as? any ChunkScheduler
        let dispatch = concurrent ?? SerialDispatch(executor: executor, stopAtFirstFailure: stopAtFirstFailure)
        var state = LoopState(clock: ContinuousClock(), limit: options.timeLimit)
        var cursor = CaseCursor(runs: options.runs, shardIndex: options.shardIndex, shardCount: options.shardCount, from: options.firstCase)
        var lastProgress = state.start

        func nextChunk() -> CaseChunk? {
            guard concurrent != nil else {
                return cursor.take(stopAtFirstFailure || options.timeLimit != nil ? Swift.min(chunkSize, 8) : chunkSize)
            }
            // Sized from the cases per second so far, small at first, and small enough at the
            // end that every worker gets a share of the last cases.
            let workers = Swift.max(1, dispatch.workers)
            let elapsed = state.searchSeconds
            let rate = state.cases > 0 && elapsed > 0 ? Double(state.cases) / elapsed / Double(workers) : 0
            let wanted = rate > 0 ? Int(rate * SearchLoop.chunkSeconds) : 16
            let share = (cursor.remaining + 2 * workers - 1) / (2 * workers)
            return cursor.take(Swift.min(Swift.max(1, Swift.min(wanted, 16_384)), Swift.max(1, share)))
        }

        while true {
            if events.stopRequested() {
                dispatch.stop()
                state.interrupted = true
                break
            }
            let stopping = state.timeUp || (stopAtFirstFailure && state.groups.count > 0)
            while !stopping && dispatch.wantsChunk, let chunk = nextChunk() { try dispatch.submit(chunk, seed: options.seed) }
            if dispatch.isIdle { break }
            let report = try dispatch.collect(timeout: events.progressInterval, dispatch: !stopping)
            if var fault = report.harnessFault {
                // No verdict is possible while the harness cannot do its work: stop, shrink nothing.
                dispatch.stop()
                fault.seed = options.seed
                throw fault
            }
            state.add(report)
            if stopAtFirstFailure && !report.failures.isEmpty {
                dispatch.stop()
                break
            }
            // Failures whose lowest case is final are shrunk and reported now, not after the search.
            let frontier = Swift.min(cursor.remaining > 0 ? cursor.next : Int.max, dispatch.lowestUnfinished ?? Int.max)
            for group in state.groups.count > state.shrunk.count ? state.groups.sorted : []
            where group.firstCase < frontier && !state.shrunk.contains(group.signature) {
                try shrinkAndReport(group, executor: executor, state: &state)
            }
            if (state.clock.now - lastProgress).seconds >= events.progressInterval {
                lastProgress = state.clock.now
                events.progress(state.progress(timeLimit: options.timeLimit))
            }
        }
        // Every case has run: the groups not shrunk yet are final.
        for group in state.groups.sorted where !state.shrunk.contains(group.signature) && !state.interrupted {
            try shrinkAndReport(group, executor: executor, state: &state)
        }
        let counts = Dictionary(uniqueKeysWithValues: state.groups.sorted.map { ($0.signature, $0.count) })
        let found = state.found.map { FoundGroup(failure: $0.failure, caseCount: counts[$0.failure.failure.signature] ?? $0.caseCount) }
        return LoopResult(cases: state.cases, rejected: state.rejected, steps: state.steps, seconds: state.searchSeconds,
                          wallSeconds: (state.clock.now - state.start).seconds, found: found, coverage: state.coverage,
                          unconfirmed: state.unconfirmed, interrupted: state.interrupted)
    }

    /// Shrinks `group`, records it and reports it (`events.found`), or notes it unconfirmed; the
    /// time it takes is not search time.
    private func shrinkAndReport(_ group: FailureGroups.Group, executor: some CaseExecutor, state: inout LoopState) throws {
        let shrinkStart = state.clock.now
        let searchSeconds = state.searchSeconds
        defer { state.paused += state.clock.now - shrinkStart }
        state.shrunk.insert(group.signature)
        guard let shrunk = try shrink(group, executor: executor) else {
            state.unconfirmed.append(group.signature)
            events.unconfirmed(group)
            return
        }
        var failure = shrunk
        failure.seconds = searchSeconds + (state.clock.now - shrinkStart).seconds
        let entry = FoundGroup(failure: failure, caseCount: group.count)
        state.found.append(entry)
        events.found(entry, state.progress(timeLimit: options.timeLimit))
    }

    /// Shrinks `group` from its lowest failing case; nil when that case no longer fails the same way.
    /// A harness fault in any run of it stops the search (`CaseHarnessFault`, at the group's case).
    private func shrink(_ group: FailureGroups.Group, executor: some CaseExecutor) throws -> FoundFailure? {
        func checked(_ run: (outcome: Outcome, draw: Draw)) throws -> (outcome: Outcome, draw: Draw) {
            guard let fault = run.outcome.harnessFault else { return run }
            throw CaseHarnessFault(seed: options.seed, caseIndex: group.firstCase, fault: fault)
        }
        let (first, original) = try checked(executor.run(case: group.firstCase, seed: options.seed))
        guard first.failure?.signature == group.signature else { return nil }
        var thrown: (any Error)?
        let shrinker = Shrinker(signature: group.signature, budget: options.shrinkBudget, stopRequested: events.stopRequested, candidates: { sequence in
            guard thrown == nil else { return (.rejected, Draw(replaying: sequence)) }
            do { return try checked(executor.replay(sequence)) } catch {
                thrown = error
                return (.rejected, Draw(replaying: sequence))
            }
        })
        let shrink = shrinker.shrink(original.sequence, run: (first, original))
        if let thrown { throw thrown }
        // An interrupted shrink's best is reported as it stands (the run is stopping): it failed this way when run.
        let again = shrink.interrupted ? nil : try checked(executor.replay(shrink.sequence)).outcome.failure
        let final = again?.signature == group.signature ? again! : group.failure
        return FoundFailure(caseIndex: group.firstCase, original: original.sequence, shrunk: shrink.sequence, failure: final,
                            shrink: shrink, seconds: 0)
    }
}

/// The loop's running totals.
private struct LoopState {
    let clock: ContinuousClock
    let start: ContinuousClock.Instant
    let limit: ContinuousClock.Instant?
    var cases = 0, rejected = 0, steps = 0
    var coverage = Coverage()
    var groups = FailureGroups()
    var shrunk: Set<FailureSignature> = []
    var found: [FoundGroup] = []
    var unconfirmed: [FailureSignature] = []
    var interrupted = false
    /// Time spent shrinking and re-running suspected cases, which the search time does not count.
    var paused = Duration.zero

    init(clock: ContinuousClock, limit seconds: Double?) {
        self.clock = clock
        let start = clock.now
        self.start = start
        limit = seconds.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
    }

    var searchSeconds: Double { (clock.now - start - paused).seconds }
    var timeUp: Bool { limit.map { cases > 0 && clock.now >= $0 + paused } ?? false }

    mutating func add(_ report: ChunkReport) {
        cases += report.cases
        rejected += report.rejected
        steps += report.steps
        coverage.merge(report.coverage)
        paused += .milliseconds(Int64(report.pausedSeconds * 1000))
        for failing in report.failures { groups.add(case: failing.index, failing.failure) }
    }

    func progress(timeLimit: Double?) -> SearchProgress {
        let seconds = searchSeconds
        return SearchProgress(cases: cases, rejected: rejected, steps: steps, failures: groups.count, seconds: seconds,
                              secondsLeft: timeLimit.map { Swift.max(0, $0 - seconds) })
    }
}
