/// The search: the plan's cases (its shard's, from its first case) handed to an executor in chunks, their failures
/// grouped by signature (`FailureGroups`), each group handed on (`final`) to be shrunk and described as soon as every
/// case below its lowest failing case has run, while the search goes on. The result does not depend on the chunk
/// size or on where the cases ran: groups are merged and ordered by case number.
///
/// With `stopAtFirstFailure` the search stops at the first failing case (time to first failure, benchmarks);
/// otherwise it runs every case. A time limit counts search time only: shrinking and re-running suspected cases do
/// not use it up.
@usableFromInline package struct SearchLoop {
    /// Cases per target when nobody says otherwise: the CLI's `--runs` and `GraphFuzzTest.check`.
    @usableFromInline package static let defaultRuns = 2000
    /// Chunks of an executor that sizes none (worker processes) last about this long, so the loop hears from each
    /// worker rarely and a time limit is overshot by little.
    package static let chunkSeconds = 0.02

    let plan: SearchPlan
    /// True once the search must stop (SIGINT, SIGTERM): running cases are abandoned, nothing more is shrunk, and
    /// the loop returns what it has, `interrupted`.
    let stopRequested: () -> Bool
    /// The search so far, about every `progressInterval` seconds.
    let progress: (SearchRun) -> Void
    let progressInterval: Double

    /// Runs the search through `executor`. `final` shrinks and describes a group once its lowest case is final: the
    /// failure (its `seconds` set by `final`: the wall clock so far, `SearchRun.wallSeconds` of what it is given, plus
    /// its own), or nil when that case did not fail the same way again (an unconfirmed crash or hang); the time it
    /// takes is not search time. `found` hears each group's lowest failing case before `final` is asked for it, as
    /// soon as it is the next failure to report and every case below it has run — while a worker still shrinks it
    /// where it ran it (`CaseExecutor.metFailures`) — with the search so far: once per group, in the order the
    /// groups are reported. Throws what the executor or `final` throws; a case whose harness faulted stops the search
    /// (`RunError.harnessFault`).
    func run(_ executor: some CaseExecutor, found: (CaseFailure, SearchRun) -> Void = { _, _ in },
             final: (FailureGroups.Group, SearchRun) throws(RunError) -> FoundFailure?) throws(RunError) -> SearchRun {
        let options = plan.options
        var state = LoopState(plan: plan, clock: ContinuousClock())
        var cursor = CaseCursor(runs: options.runs, shardIndex: options.shardIndex, shardCount: options.shardCount, from: options.firstCase)
        var lastProgress = state.start
        /// The cases told as found.
        var told: Set<Int> = []

        func tell(_ failing: CaseFailure) {
            guard told.insert(failing.index).inserted else { return }
            found(failing, state.soFar)
        }

        /// The next failure to report — the lowest case of the groups not settled and of the failures the executor
        /// knows of whose signature is not settled — once every case below it has run: it is at most `frontier`, the
        /// lowest case not finished (the failing case itself, while a worker shrinks it) or not submitted.
        func tellNext(frontier: Int) {
            let group = state.groups.count > state.settled.count
                ? state.groups.sorted.first { !state.settled.contains($0.signature) }.map { CaseFailure(index: $0.firstCase, failure: $0.failure) }
                : nil
            let met = executor.metFailures.first { !state.settled.contains($0.failure.signature) }
            guard let next = [group, met].compactMap({ $0 }).min(by: { $0.index < $1.index }), next.index <= frontier else { return }
            tell(next)
        }

        func nextChunk() -> CaseChunk? {
            if let size = executor.chunkSize {
                return cursor.take(options.stopAtFirstFailure || options.timeLimit != nil ? Swift.min(size, 8) : size)
            }
            // Sized from the cases per second so far, small at first, and small enough at the end that every
            // worker gets a share of the last cases.
            let workers = Swift.max(1, executor.workers)
            let elapsed = state.searchSeconds
            let rate = state.run.cases > 0 && elapsed > 0 ? Double(state.run.cases) / elapsed / Double(workers) : 0
            let wanted = rate > 0 ? Int(rate * SearchLoop.chunkSeconds) : 16
            let share = (cursor.remaining + 2 * workers - 1) / (2 * workers)
            return cursor.take(Swift.min(Swift.max(1, Swift.min(wanted, 16_384)), Swift.max(1, share)))
        }

        /// Hands `group` on to be shrunk and described; its time is not search time.
        func settle(_ group: FailureGroups.Group) throws(RunError) {
            let started = state.clock.now
            defer { state.paused += state.clock.now - started }
            state.settled.insert(group.signature)
            tell(CaseFailure(index: group.firstCase, failure: group.failure))
            guard let found = try final(group, state.soFar) else {
                state.run.unconfirmed.append(group.signature)
                return
            }
            // One interleaving that broke several rules is one bug: reported with the first failure it showed in.
            if let earlier = found.sameInterleavingAs, let index = state.run.failures.firstIndex(where: { $0.failure.signature == earlier }) {
                state.run.failures[index].alsoBroken.append(SameInterleaving(failure: found.failure, caseIndex: found.caseIndex,
                                                                             caseCount: found.caseCount))
                return
            }
            state.run.failures.append(found)
        }

        while true {
            if stopRequested() {
                let frontier = Swift.min(cursor.remaining > 0 ? cursor.next : Int.max, executor.lowestUnfinished ?? Int.max)
                state.add(executor.stopReporting())
                state.run.interrupted = true
                // A failure whose shrink a worker was making where it ran it is reported with that shrink, marked
                // interrupted (settling it runs nothing more); the other groups are left. Its case may be the frontier
                // itself (the case its worker had announced last), which has finished: it failed.
                for group in state.groups.sorted where !state.settled.contains(group.signature) && group.firstCase <= frontier
                    && executor.holdsShrink(case: group.firstCase) {
                    try settle(group)
                }
                break
            }
            let stopping = state.timeUp || (options.stopAtFirstFailure && state.groups.count > 0)
            while !stopping && executor.wantsChunk, let chunk = nextChunk() { try executor.submit(chunk, seed: options.seed) }
            if executor.isIdle { break }
            let report = try executor.collect(timeout: progressInterval, dispatch: !stopping)
            if let fault = report.harnessFault {
                // No verdict is possible while the harness cannot do its work: stop, shrink nothing.
                executor.stop()
                throw .harnessFault(plan.naming(fault))
            }
            state.add(report)
            if options.stopAtFirstFailure && !report.failures.isEmpty {
                executor.stop()
                break
            }
            // Failures whose lowest case is final are shrunk and reported now, not after the search.
            let frontier = Swift.min(cursor.remaining > 0 ? cursor.next : Int.max, executor.lowestUnfinished ?? Int.max)
            for group in state.groups.count > state.settled.count ? state.groups.sorted : []
            where group.firstCase < frontier && !state.settled.contains(group.signature) {
                try settle(group)
            }
            tellNext(frontier: frontier)
            if (state.clock.now - lastProgress).seconds >= progressInterval {
                lastProgress = state.clock.now
                progress(state.soFar)
            }
        }
        // Every case has run: the groups not settled yet are final.
        for group in state.groups.sorted where !state.settled.contains(group.signature) && !state.run.interrupted {
            try settle(group)
        }
        var run = state.soFar
        let counts = Dictionary(uniqueKeysWithValues: state.groups.sorted.map { ($0.signature, $0.count) })
        for index in run.failures.indices {
            run.failures[index].caseCount = counts[run.failures[index].failure.signature] ?? run.failures[index].caseCount
            for other in run.failures[index].alsoBroken.indices {
                let also = run.failures[index].alsoBroken[other]
                run.failures[index].alsoBroken[other].caseCount = counts[also.failure.signature] ?? also.caseCount
            }
        }
        return run
    }
}

/// The loop's running totals.
private struct LoopState {
    let clock: ContinuousClock
    let start: ContinuousClock.Instant
    let limit: ContinuousClock.Instant?
    var run: SearchRun
    var groups = FailureGroups()
    /// The signatures handed on to be shrunk.
    var settled: Set<FailureSignature> = []
    /// Time spent shrinking and re-running suspected cases, which the search time does not count.
    var paused = Duration.zero

    init(plan: SearchPlan, clock: ContinuousClock) {
        self.clock = clock
        let start = clock.now
        self.start = start
        run = SearchRun(plan: plan)
        limit = plan.options.timeLimit.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
    }

    var searchSeconds: Double { (clock.now - start - paused).seconds }
    var timeUp: Bool { limit.map { run.cases > 0 && clock.now >= $0 + paused } ?? false }

    /// The search so far, its times up to now.
    var soFar: SearchRun {
        var run = self.run
        run.seconds = searchSeconds
        run.wallSeconds = (clock.now - start).seconds
        return run
    }

    mutating func add(_ report: ChunkReport) {
        run.cases += report.cases
        run.rejected += report.rejected
        run.steps += report.steps
        run.coverage.merge(report.coverage)
        paused += .milliseconds(Int64(report.pausedSeconds * 1000))
        for failing in report.failures { groups.add(case: failing.index, failing.failure) }
    }
}
