/// A failing case of a chunk: its index and how it failed.
@usableFromInline package struct CaseFailure: Sendable, Equatable {
    @usableFromInline package var index: Int
    @usableFromInline package var failure: Failure

    @usableFromInline package init(index: Int, failure: Failure) {
        self.index = index
        self.failure = failure
    }
}

/// What running a chunk of cases did.
@usableFromInline package struct ChunkReport: Sendable, Equatable {
    /// Cases that ran (all of the chunk's, or up to the first failure when asked to stop there).
    @usableFromInline package var cases: Int
    @usableFromInline package var rejected: Int
    @usableFromInline package var steps: Int
    /// The failing cases, in case order.
    @usableFromInline package var failures: [CaseFailure]
    /// What the cases exercised (empty for executors that do not count it).
    @usableFromInline package var coverage: Coverage
    /// Seconds spent re-running suspected cases (a child that died or ran out of time), which
    /// the search's time does not count.
    @usableFromInline package var pausedSeconds: Double
    /// The first case whose harness could not do its work (`HarnessFault`): the chunk ended there,
    /// and the search stops with it. Its `seed` is the run's.
    @usableFromInline package var harnessFault: CaseHarnessFault?

    @usableFromInline package init(cases: Int = 0, rejected: Int = 0, steps: Int = 0, failures: [CaseFailure] = [], coverage: Coverage = Coverage(),
                pausedSeconds: Double = 0) {
        self.pausedSeconds = pausedSeconds
        self.cases = cases
        self.rejected = rejected
        self.steps = steps
        self.failures = failures
        self.coverage = coverage
    }
}

extension ChunkReport {
    /// Runs the chunk's cases with `run` (given a case's index: its outcome, steps and coverage) and
    /// adds them up; stops at a harness fault, and at the first failure when asked. `willRun` is
    /// told each case's index, with what the chunk did so far, before it runs.
    @usableFromInline static func collect(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool, willRun: (Int, ChunkReport) -> Void = { _, _ in },
                        _ run: (Int) -> (outcome: Outcome, steps: Int, coverage: Coverage?)) -> ChunkReport {
        var report = ChunkReport()
        for index in chunk.indices {
            willRun(index, report)
            let (outcome, steps, coverage) = run(index)
            report.cases += 1
            report.steps += steps
            if let coverage { report.coverage.merge(coverage) }
            switch outcome {
            case .pass: break
            case .rejected: report.rejected += 1
            case .fail(let failure):
                report.failures.append(CaseFailure(index: index, failure: failure))
                if stopAtFirstFailure { return report }
            case .harnessFault(let fault):
                report.harnessFault = CaseHarnessFault(seed: seed, caseIndex: index, fault: fault)
                return report
            }
        }
        return report
    }
}

/// A group's lowest failing case as it ran to begin its shrink (`CaseExecutor.runAndShrink`), and the shrink when the
/// executor made it.
package struct FirstRun {
    /// The case: what it did and consumed.
    package var result: CaseResult
    /// The shrink, nil when the caller is to shrink (the case did not fail the same way, or the executor shrinks
    /// nothing itself).
    package var shrink: ShrinkResult?
    /// The first candidate of that shrink whose harness faulted (no candidate ran after it): the search stops there.
    package var candidateFault: HarnessFault?

    package init(result: CaseResult, shrink: ShrinkResult? = nil, candidateFault: HarnessFault? = nil) {
        self.result = result
        self.shrink = shrink
        self.candidateFault = candidateFault
    }
}

extension CaseExecutor {
    package func stopReporting() -> ChunkReport {
        stop()
        return ChunkReport()
    }

    package func holdsShrink(case index: Int) -> Bool { false }

    package var metFailures: [CaseFailure] { [] }

    package func runAndShrink(case index: Int, seed: UInt64, signature: FailureSignature, budget: ShrinkBudget,
                              stopRequested: () -> Bool) throws(RunError) -> FirstRun {
        FirstRun(result: try run(case: index, seed: seed))
    }
}

/// Where the cases of a search run: the seam between the search loop (`SearchLoop`) and how a case is executed — in
/// this process (`LocalExecutor`), or in worker processes that a trap may take down without taking the search with
/// them (GraphFuzzIsolation's `ProcessExecutor`, for the command line and `GraphFuzzTest`). Case `i` is generated from
/// `SplitMix64.caseSeed(run: seed, case: i)` alone, so where it runs never changes what it does. An executor holds no
/// seed: every request carries the run's.
///
/// The loop submits chunks of cases while the executor `wantsChunk` and collects what finished: one chunk at a time
/// in this process, several at once in workers. Failures may arrive out of case order; the loop orders them, and
/// hands a group to be shrunk only once every case below its lowest failing case has run (`lowestUnfinished`). To
/// shrink and describe a failure it runs single cases (`run(case:seed:)`, `replay`, `describe`), each of which
/// returns what the case consumed, so no case runs again to learn it.
package protocol CaseExecutor: AnyObject {
    /// Chunks that can run at once.
    var workers: Int { get }
    /// The size of the chunks of an executor that runs one chunk at a time in this process; nil: the loop sizes them
    /// from the cases per second, so each lasts about `SearchLoop.chunkSeconds`.
    var chunkSize: Int? { get }
    /// True while it can take another chunk without it waiting long.
    var wantsChunk: Bool { get }
    /// True when no chunk is queued or running.
    var isIdle: Bool { get }
    /// The lowest case submitted that has not finished, nil when none.
    var lowestUnfinished: Int? { get }
    /// Queues `chunk` of the run `seed`.
    func submit(_ chunk: CaseChunk, seed: UInt64) throws(RunError)
    /// Waits at most `timeout` seconds for cases to finish and reports the cases that finished since the last call
    /// (a case that took a worker down counts once its verdict is known: a `crash` only once a fresh worker died of it
    /// again). A case whose harness faulted is reported in `harnessFault`, never as a failure. With `dispatch` false,
    /// queued chunks that have not started are dropped (time is up).
    func collect(timeout: Double, dispatch: Bool) throws(RunError) -> ChunkReport
    /// Abandons every queued and running chunk (the search stopped).
    func stop()
    /// Stops as `stop` does and reports what the running chunks told as they stopped: a failure a worker was
    /// shrinking where its batch ran it, with its shrink so far (`holdsShrink`). The default stops and reports nothing.
    func stopReporting() -> ChunkReport
    /// Failing cases whose failures the executor knows before `collect` reports them, in case order: a worker that
    /// shrinks a failure where it ran it tells the failure as the shrink starts, and reports it once the shrink
    /// ends. The loop tells the next failure to report as found from them (`SearchLoop`). The default knows none.
    var metFailures: [CaseFailure] { get }
    /// Whether the executor holds the shrink of case `index`, made where the search ran it: settling its group runs
    /// nothing more (`runAndShrink`, `describe`). The default holds none.
    func holdsShrink(case index: Int) -> Bool
    /// Runs case `index` of the run `seed` alone (a group's lowest failing case, to shrink it): what it did and consumed.
    func run(case index: Int, seed: UInt64) throws(RunError) -> CaseResult
    /// Runs case `index` of the run `seed` alone to begin the shrink of its group (failures of `signature`) and, when
    /// the executor can shrink it where it runs (no round trip per candidate), shrinks it too, with the same
    /// candidates and result as a shrink that runs each candidate through `replay`; an executor that holds the case's
    /// shrink already (`holdsShrink`) runs nothing. The default runs the case (`run(case:seed:)`) and leaves the shrink
    /// to the caller.
    func runAndShrink(case index: Int, seed: UInt64, signature: FailureSignature, budget: ShrinkBudget,
                      stopRequested: () -> Bool) throws(RunError) -> FirstRun
    /// Runs a shrink candidate: what it did and consumed (see `Shrinker.init(signature:budget:passes:stopRequested:candidates:)`).
    func replay(_ sequence: ChoiceSequence) throws(RunError) -> CaseResult
    /// Runs the shrunk case recorded, to describe it: its outcome and record (nil for a subject that has none).
    func describe(_ sequence: ChoiceSequence) throws(RunError) -> CaseResult
}
