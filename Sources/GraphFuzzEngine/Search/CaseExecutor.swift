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

/// Where the cases of a search run: the seam between the one search loop (`SearchLoop`) and
/// how a case is executed — in this process (`LocalExecutor`), or in a worker process that a
/// trap may take down without taking the search with it (GraphFuzzIsolation's `ProcessExecutor`, for the
/// command line and `GraphFuzzTest`). Case `i` is generated from `SplitMix64.caseSeed(run: seed, case: i)` alone,
/// so where it runs never changes what it does. An executor holds no seed: every request carries the run's.
package protocol CaseExecutor: AnyObject {
    /// Runs the chunk's cases of the run `seed`; with `stopAtFirstFailure`, stops after the first
    /// failing case. A case that takes a child process down is reported as a `crash` failure of
    /// that case, only once a fresh process died of it again. A case whose harness faulted is
    /// reported in `harnessFault`, never as a failure.
    func run(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool) throws -> ChunkReport
    /// Runs case `index` of the run `seed` alone: its outcome and the draw holding what it consumed.
    func run(case index: Int, seed: UInt64) throws -> (outcome: Outcome, draw: Draw)
    /// Runs a shrink candidate: its outcome and the draw holding what it consumed (read only when
    /// the outcome is a failure; see `Shrinker.init(signature:budget:candidates:)`).
    func replay(_ sequence: ChoiceSequence) throws -> (outcome: Outcome, draw: Draw)
    /// The shrunk case as readable records, nil when it cannot be described.
    func record(_ sequence: ChoiceSequence) -> CaseRecord?
    /// Steps the case from `sequence` ran (for "shrunk N → M steps").
    func steps(_ sequence: ChoiceSequence) -> Int
}

/// Runs several chunks at once (worker processes): the search loop submits chunks
/// while it `wantsChunk` and collects what finished. Failures may arrive out of case order; the
/// loop orders them, and shrinks a group only once every case below its lowest failing case has
/// run (`lowestUnfinished`).
package protocol ChunkScheduler: AnyObject {
    /// Chunks that can run at once.
    var workers: Int { get }
    /// True while it can take another chunk without it waiting long.
    var wantsChunk: Bool { get }
    /// True when no chunk is queued or running.
    var isIdle: Bool { get }
    /// The lowest case submitted that has not finished, nil when none.
    var lowestUnfinished: Int? { get }
    /// Queues `chunk` of the run `seed`.
    func submit(_ chunk: CaseChunk, seed: UInt64) throws
    /// Waits at most `timeout` seconds for cases to finish and reports the cases that finished
    /// since the last call (a case that took a child down counts once its verdict is known).
    /// With `dispatch` false, queued chunks that have not started are dropped (time is up).
    func collect(timeout: Double, dispatch: Bool) throws -> ChunkReport
    /// Abandons every queued and running chunk (the search was interrupted).
    func stop()
}

/// An executor that runs several chunks at once; the search loop schedules its chunks itself.
package typealias ConcurrentCaseExecutor = CaseExecutor & ChunkScheduler

/// An executor that runs one chunk at a time: each collect runs the chunk submitted.
final class SerialDispatch: ChunkScheduler {
    let executor: any CaseExecutor
    let stopAtFirstFailure: Bool
    private var queued: (chunk: CaseChunk, seed: UInt64)?

    init(executor: any CaseExecutor, stopAtFirstFailure: Bool) {
        self.executor = executor
        self.stopAtFirstFailure = stopAtFirstFailure
    }

    var workers: Int { 1 }
    var wantsChunk: Bool { queued == nil }
    var isIdle: Bool { queued == nil }
    var lowestUnfinished: Int? { queued?.chunk.start }
    func submit(_ chunk: CaseChunk, seed: UInt64) { queued = (chunk, seed) }
    func collect(timeout: Double, dispatch: Bool) throws -> ChunkReport {
        guard let (chunk, seed) = queued else { return ChunkReport() }
        queued = nil
        return try executor.run(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure)
    }
    func stop() { queued = nil }
}

extension CaseExecutor {
    @usableFromInline package func record(_ sequence: ChoiceSequence) -> CaseRecord? { nil }
    @usableFromInline package func steps(_ sequence: ChoiceSequence) -> Int { 0 }
}
