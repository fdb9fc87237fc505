/// Runs asynchronous code — the tasks it starts, its actors' jobs, its main-actor work, its sleeps — on the
/// calling thread, one job at a time, choosing every next job from a `Draw`. The same choices give the same
/// interleaving; recorded choices replay it; all-zero choices run jobs in the order they were enqueued.
///
/// ```swift
/// let draw = Draw(seed: 7)
/// let (run, branches) = Scheduler(draw: draw).runConcurrently([
///     ScheduledBranch("A") { await counter.increment() },
///     ScheduledBranch("B", cancellable: true) { await counter.increment() },
/// ])
/// run.lanes            // the interleaving, a lane per task
/// Scheduler(draw: Draw(replaying: draw.sequence)).runConcurrently(…)   // the same again
/// ```
///
/// The code under test keeps its ordinary `actor`, `async` and `@MainActor` annotations. What the scheduler
/// holds (Swift 6.3):
/// - every job of a task that prefers the case's task executor: the root task (`run`) or each branch's task
///   (`runConcurrently`) and, by inheritance, their child tasks (`async let`, task groups); their `Task.yield`
///   and resumed continuations; the processing jobs of default actors they hop to;
/// - main-actor work of the case: `MainActor.shared.unownedExecutor` answers with a stand-in executor on
///   the driving thread (a runtime hook), so hops to `@MainActor` land in the scheduler;
/// - jobs of unstructured tasks created inside the case (`Task {}`, `Task.detached`), caught by the global
///   enqueue hook and the process's default executor (`RoutingDefaultExecutor`) on the driving thread;
/// - every sleep (`Task.sleep` in all its forms, `Clock.sleep` on `ContinuousClock` and `SuspendingClock`,
///   timeouts built from them), whatever executor or isolation the sleeping task has, on a virtual clock
///   that advances only when nothing can run.
///
/// What it does not control, and reports in `ScheduledRun.uncontrolled`: work handed to Dispatch — noted
/// when it is handed over (`DispatchHandoffs`), so a case that does is reported the same way on every run —
/// and jobs that come back from threads of the code under test, admitted one at a time when nothing in the
/// case can go on. Jobs queued on one default actor run in the actor's own order, back to back, once its
/// processing job is picked: which task reaches the actor first is a choice, a switch inside the actor's
/// queue is not.
///
/// A job that never returns hangs the run (leave that to the caller's timeout); when nothing can run, the
/// scheduler waits at most `Options.outsideWait` for outside work before it reports a deadlock.
@available(macOS 15.0, *)
public struct Scheduler {
    /// Settings of a scheduled run.
    public struct Options: Sendable {
        /// How the next job is chosen; `ScheduleStrategy.standard` (a portfolio of a random walk and PCT) by
        /// default. docs/scheduling.md compares the strategies on the sample bugs and the shipped concurrency mutants.
        public var strategy: ScheduleStrategy
        /// The run stops with `.jobLimit` after this many jobs.
        public var maxJobs: Int
        /// How long to wait for a job from another thread when nothing in the case can run, before the run
        /// is called a deadlock. Only a deadlock pays it; code that uses no threads of its own (no Dispatch,
        /// no callbacks from other threads) can set it to zero.
        public var outsideWait: Duration
        /// How late a cancellable branch (`ScheduledBranch.cancellable`) may be cancelled: each draws a point
        /// `n` in `0...cancelWithin` (0, never, with probability ½; shrinking moves towards it), and a point
        /// `n > 0` cancels the branch's task before the `n`-th job after the one it started in, if it is still
        /// running: at one of its suspension points, as `Task.cancel()` from another task would.
        public var cancelWithin: Int
        /// The picks of a recorded schedule (`ScheduledRun.picks`), replayed instead of drawing: a step with
        /// a choice takes the next one; past the last, the oldest job runs. Nothing is drawn for the schedule.
        public var replaying: [Int]?
        /// The cancellation points of a recorded run (`BranchRecord.cancelPoint`, one per branch in order, 0 for
        /// a branch never cancelled), replayed instead of drawing. Used with `replaying`.
        public var replayingCancellations: [Int]?

        /// The settings, each defaulted as its property says.
        public init(strategy: ScheduleStrategy = .standard, maxJobs: Int = 100_000,
                    outsideWait: Duration = .seconds(1), cancelWithin: Int = 16) {
            self.strategy = strategy
            self.maxJobs = maxJobs
            self.outsideWait = outsideWait
            self.cancelWithin = cancelWithin
        }
    }

    /// Where every scheduling decision comes from.
    public let draw: Draw
    /// The strategy, limits, cancellation reach and replayed schedule of the run.
    public let options: Options

    /// A scheduler that draws its decisions from `draw` (inside one span of its own, `Span.Label.schedule`).
    public init(draw: Draw, options: Options = Options()) {
        self.draw = draw
        self.options = options
    }

    /// Runs `body` and everything it starts to completion under the scheduler, on the calling thread.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> ScheduledRun<Value> {
        let result = ResultSlot<Value>()
        return execute(start: { executor in _ = Task(executorPreference: executor) { result.value = await body() } },
                       result: { result.value }, branches: false, unfinished: { ["\($0.task(1)) has not returned"] })
    }

    /// Runs the branches concurrently (each a task of its own, tasks 1, 2, … in order, started before the first
    /// job: no root task waits for them) under the scheduler and records, for each, its result, the steps at which
    /// it started and finished — what a linearizability check needs — and where it was cancelled, if it was
    /// (`ScheduledBranch.cancellable`).
    ///
    /// The schedule's span holds, in order: PCT's change points (PCT only), the cancellation point of each
    /// cancellable branch, then one pick per step that had a choice.
    public func runConcurrently<Value: Sendable>(_ branches: [ScheduledBranch<Value>]) -> (run: ScheduledRun<Void>, branches: [BranchRecord<Value>]) {
        let log = BranchLog<Value>(branches)
        let cancellable = branches.indices.filter { branches[$0].cancellable }
        let start: (CaseTaskExecutor) -> Void = { executor in
            for (index, branch) in branches.enumerated() {
                _ = Task(executorPreference: executor) {
                    log.begin(index)
                    let value = await branch.run()
                    log.end(index, value)
                }
            }
        }
        let done: () -> Void? = { log.allFinished ? () : nil }
        guard !cancellable.isEmpty && options.cancelWithin > 0 else {
            return (execute(start: start, result: done, branches: true, unfinished: log.unfinished), log.records)
        }
        let within = options.cancelWithin
        let replaying = options.replaying == nil ? nil : options.replayingCancellations ?? []
        let plan: (Draw) -> Void = { draw in log.planCancellations(cancellable, within: within, draw: draw, replaying: replaying) }
        let run = execute(start: start, result: done, branches: true, unfinished: log.unfinished, drawPlan: plan, beforeStep: log.cancelDue)
        return (run, log.records)
    }

    /// The loop: `start` makes the run's tasks (their first jobs held), then it picks and runs one job at a time
    /// until `result` has a value and nothing can run, a deadlock, or the job limit.
    ///
    /// `drawPlan` draws what the run decides before its first job (inside the schedule's span, after the
    /// strategy's own draws); `beforeStep` is called with the core before each step runs.
    private func execute<Value: Sendable>(start: (CaseTaskExecutor) -> Void, result: () -> Value?, branches: Bool, unfinished: @escaping (ScheduleRenderer) -> [String],
                                          drawPlan: ((Draw) -> Void)? = nil, beforeStep: ((SchedulerCore) -> Void)? = nil) -> ScheduledRun<Value> {
        _ = RuntimeHooks.installed
        let core = SchedulerCore()
        if branches { core.drawsBranchesOnly() }
        let executor = CaseTaskExecutor(core: core)
        core.attach(executor)
        let previous = DriverBinding.bind(core)
        draw.beginSpan(.schedule)
        var picker = SchedulePicker(strategy: options.strategy, draw: draw, replaying: options.replaying)
        drawPlan?(draw)
        start(executor)
        let outcome: ScheduleOutcome<Value>
        while true {
            if core.runnable.isEmpty {
                // Outside work lands only when nothing in the case can go on, sleepers included: a point that
                // depends on the case's own jobs, never on when the other thread got there.
                let value = result()
                if value == nil && core.advanceClock() { continue }
                if let value { outcome = .completed(value); break }
                if core.admitArrival(waitingUpTo: options.outsideWait) { continue }
                let renderer = ScheduleRenderer(core.record)
                outcome = .deadlock(waiting: unfinished(renderer))
                break
            }
            if core.step >= options.maxJobs { outcome = .jobLimit(core.step); break }
            if let beforeStep {
                beforeStep(core)
                if core.runnable.isEmpty { continue }
            }
            let index = picker.pick(from: core.runnable, step: core.step + 1, draw: draw)
            core.runJob(at: index, pick: index)
        }
        draw.endSpan()
        DriverBinding.restore(previous)
        core.close()
        return ScheduledRun(outcome: outcome, record: core.record, uncontrolled: uncontrolled(core),
                            virtualTime: core.now, pendingTimers: core.sleepers, externalJobs: core.externalJobs + core.record.handoffs.count,
                            invalidPick: picker.invalidPick)
    }

    private func uncontrolled(_ core: SchedulerCore) -> [String] {
        let renderer = ScheduleRenderer(core.record)
        var notes = core.record.handoffs.map(renderer.handoff)
        if !notes.isEmpty {
            notes.append("a completion handler that Dispatch runs on another thread races the task awaiting it (whether that task "
                + "suspends first depends on timing), so no interleaving of it repeats: give the test an async fake of the API "
                + "(one that awaits instead of calling back on a queue), or keep the call out of concurrent steps")
        } else if core.externalJobs > 0 {
            notes.append("\(core.externalJobs) job(s) came from other threads (a thread of the code under test): each was admitted, "
                + "in the order they arrived, when nothing in the case could go on")
        }
        if !core.unpreferredTasks.isEmpty && !RuntimeHooks.installed.routesDefaultExecutor {
            let tasks = core.unpreferredTasks.map(renderer.task).joined(separator: ", ")
            notes.append("\(tasks) started without the case's executor preference (an unstructured Task or Task.detached): "
                + "Task.yield or Task.sleep inside them while isolated to an actor leaves the scheduler")
        }
        return notes
    }
}

/// The root task's result, written by its last job and read by the loop (both on the driving thread).
private final class ResultSlot<Value>: @unchecked Sendable {
    var value: Value?
}

/// Start and finish steps of the branches of a concurrent run, their tasks and cancellations, written by their jobs
/// and the scheduler's loop on the driving thread.
private final class BranchLog<Value: Sendable>: @unchecked Sendable {
    /// What one branch did so far.
    private struct Entry {
        let label: String
        /// The steps during which it began and returned.
        var started: Int?
        var finished: Int?
        var result: Value?
        /// Its task, while it runs (valid until it finishes: the scheduler's core retains every task of the run
        /// until it ends).
        var task: UnsafeCurrentTask?
        /// Its cancellation point (0: never) and the step before which it was cancelled.
        var cancelPoint = 0
        var cancelledAt: Int?

        init(label: String) { self.label = label }
    }

    /// One entry per branch, in order: one array for the run's bookkeeping. Touched only on the driving thread, by
    /// the jobs the scheduler runs one at a time and by its loop between them, so no access overlaps another: dynamic
    /// exclusivity checks are off here, as in `SchedulerCore`.
    @exclusivity(unchecked) private var entries: [Entry]

    init(_ branches: [ScheduledBranch<Value>]) {
        entries = branches.map { Entry(label: $0.label) }
    }

    func begin(_ index: Int) {
        guard let core = DriverBinding.current else { return }
        entries[index].started = core.step
        entries[index].task = withUnsafeCurrentTask { $0 }
        core.mark(entries[index].label, "started", namesTask: true)
    }

    func end(_ index: Int, _ value: Value) {
        guard let core = DriverBinding.current else { return }
        entries[index].finished = core.step
        entries[index].result = value
        entries[index].task = nil
        core.mark(entries[index].label, "finished")
    }

    /// Draws (or reads from `replaying`, one point per branch) the cancellation point of each cancellable
    /// branch: 0 with weight `within`, each of `1...within` with weight 1.
    func planCancellations(_ cancellable: [Int], within: Int, draw: Draw, replaying: [Int]?) {
        let weights = [UInt32(within)] + Array(repeating: UInt32(1), count: within)
        for index in cancellable {
            if let replaying {
                entries[index].cancelPoint = index < replaying.count ? max(0, replaying[index]) : 0
            } else {
                entries[index].cancelPoint = draw.chooseWeighted(weights)
            }
        }
    }

    /// Cancels every branch whose cancellation point is the step about to run.
    func cancelDue(_ core: SchedulerCore) {
        let next = core.step + 1
        for index in entries.indices where entries[index].cancelPoint > 0 && entries[index].cancelledAt == nil && entries[index].finished == nil {
            guard let start = entries[index].started, start + entries[index].cancelPoint == next, let task = entries[index].task else { continue }
            entries[index].cancelledAt = next
            core.note(entries[index].label, "cancelled", atStep: next)
            task.cancel()
        }
    }

    var records: [BranchRecord<Value>] {
        entries.map {
            BranchRecord(label: $0.label, result: $0.result, started: $0.started, finished: $0.finished, cancelPoint: $0.cancelPoint,
                         cancelled: $0.cancelledAt)
        }
    }

    var allFinished: Bool { entries.allSatisfy { $0.finished != nil } }

    func unfinished(_ renderer: ScheduleRenderer) -> [String] {
        entries.compactMap { entry in
            if entry.finished != nil { return nil }
            guard let step = entry.started else { return "\(entry.label) never started" }
            return "\(entry.label) started at #\(step) and has not returned"
        }
    }
}
