extension Span.Label {
    /// The scheduling decisions of one scheduled run (zeroing the span runs every job in FIFO order).
    package static let schedule = Span.Label(rawValue: 11)
}

/// Runs asynchronous code — the tasks it starts, its actors' jobs, its main-actor work, its sleeps — on the
/// calling thread, one job at a time, choosing every next job from a `Draw`. The same choices give the same
/// interleaving; recorded choices replay it; all-zero choices run jobs in the order they were enqueued.
///
/// The code under test keeps its ordinary `actor`, `async` and `@MainActor` annotations. What the scheduler
/// holds (Swift 6.3):
/// - every job of a task that prefers the case's task executor: the root task and, by inheritance, its
///   child tasks (`async let`, task groups); their `Task.yield` and resumed continuations; the processing
///   jobs of default actors they hop to;
/// - main-actor work of the case: `MainActor.shared.unownedExecutor` answers with a stand-in executor on
///   the driving thread (a runtime hook), so hops to `@MainActor` land in the scheduler;
/// - `Task.sleep` wake-ups, on a virtual clock that advances only when nothing can run;
/// - jobs of unstructured tasks created inside the case (`Task {}`, `Task.detached`), caught by the global
///   enqueue hook on the driving thread.
///
/// What it does not control, and reports in `ScheduledRun.uncontrolled`: jobs handed over from other
/// threads (a continuation resumed by a Dispatch queue, a thread of the code under test) — admitted only
/// when nothing else can run; `Task.yield`/`Task.sleep` inside an unstructured task while it is isolated to
/// an actor (the runtime hands those to the default executor directly); work sent to Dispatch queues.
/// Jobs queued on one default actor run in the actor's own order, back to back, once its processing job is
/// picked: which task reaches the actor first is a choice, a switch inside the actor's queue is not.
///
/// A job that never returns hangs the run (leave that to the caller's timeout); when nothing can run, the
/// scheduler waits at most `Options.outsideWait` for outside work before it reports a deadlock.
@available(macOS 15.0, *)
public struct Scheduler {
    /// Settings of a scheduled run.
    public struct Options: Sendable {
        /// PCT by default: on the lost-update sample it needs as few cases as a random walk when the bug is
        /// shallow and far fewer when it is not (docs/scheduling.md has the figures).
        public var strategy: ScheduleStrategy
        /// The run stops with `.jobLimit` after this many jobs.
        public var maxJobs: Int
        /// How long to wait for a job from another thread when nothing in the case can run, before the run
        /// is called a deadlock. Only a deadlock pays it; code that uses no threads of its own (no Dispatch,
        /// no callbacks from other threads) can set it to zero.
        public var outsideWait: Duration
        /// The picks of a recorded schedule (`ScheduledRun.picks`), replayed instead of drawing: a step with
        /// a choice takes the next one; past the last, the oldest job runs. Nothing is drawn.
        var replaying: [Int]?

        public init(strategy: ScheduleStrategy = .pct(depth: 2, expectedSteps: 64), maxJobs: Int = 100_000,
                    outsideWait: Duration = .seconds(1)) {
            self.strategy = strategy
            self.maxJobs = maxJobs
            self.outsideWait = outsideWait
        }
    }

    /// Where every scheduling decision comes from.
    public let draw: Draw
    public let options: Options

    public init(draw: Draw, options: Options = Options()) {
        self.draw = draw
        self.options = options
    }

    /// Runs `body` and everything it starts to completion under the scheduler, on the calling thread.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> ScheduledRun<Value> {
        execute(body) { _ in [] }
    }

    /// Runs the branches concurrently (child tasks of one task group) under the scheduler and records, for
    /// each, its result and the steps at which it started and finished — what a linearizability check needs.
    public func runConcurrently<Value: Sendable>(_ branches: [ScheduledBranch<Value>]) -> (run: ScheduledRun<Void>, branches: [BranchRecord<Value>]) {
        let log = BranchLog<Value>(labels: branches.map(\.label))
        let run = execute({
            await withTaskGroup(of: Void.self) { group in
                for (index, branch) in branches.enumerated() {
                    group.addTask {
                        log.begin(index)
                        let value = await branch.body()
                        log.end(index, value)
                    }
                }
            }
        }, unfinished: log.unfinished)
        return (run, log.records)
    }

    /// The loop: holds the root task's first job, then picks and runs one job at a time until the body has
    /// returned and nothing can run, a deadlock, or the job limit.
    private func execute<Value: Sendable>(_ body: @escaping @Sendable () async -> Value,
                                          unfinished: @escaping (ScheduleRenderer) -> [String]) -> ScheduledRun<Value> {
        _ = RuntimeHooks.installed
        let core = SchedulerCore()
        let executor = CaseTaskExecutor(core: core)
        core.attach(executor)
        let result = ResultSlot<Value>()
        let previous = DriverBinding.bind(core)
        draw.beginSpan(.schedule)
        var picker = SchedulePicker(strategy: options.strategy, draw: draw, replaying: options.replaying)
        _ = Task(executorPreference: executor) { result.value = await body() }
        let outcome: ScheduleOutcome<Value>
        while true {
            if core.runnable.isEmpty {
                // Outside work lands only when nothing in the case can go on, sleepers included: a point that
                // depends on the case's own jobs, never on when the other thread got there.
                if result.value == nil && core.advanceClock() { continue }
                if let value = result.value { outcome = .completed(value); break }
                if core.admitArrival(waitingUpTo: options.outsideWait) { continue }
                let renderer = ScheduleRenderer(core.record)
                outcome = .deadlock(waiting: ["\(renderer.task(1)) has not returned"] + unfinished(renderer))
                break
            }
            if core.step >= options.maxJobs { outcome = .jobLimit(core.step); break }
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

/// Start and finish steps of the branches of a concurrent run, written by their jobs on the driving thread.
private final class BranchLog<Value: Sendable>: @unchecked Sendable {
    let labels: [String]
    private var started: [Int?]
    private var finished: [Int?]
    private var results: [Value?]

    init(labels: [String]) {
        self.labels = labels
        started = Array(repeating: nil, count: labels.count)
        finished = started
        results = Array(repeating: nil, count: labels.count)
    }

    func begin(_ index: Int) {
        guard let core = DriverBinding.current else { return }
        started[index] = core.step
        core.mark("\(labels[index]) started", label: labels[index])
    }

    func end(_ index: Int, _ value: Value) {
        guard let core = DriverBinding.current else { return }
        finished[index] = core.step
        results[index] = value
        core.mark("\(labels[index]) finished")
    }

    var records: [BranchRecord<Value>] {
        labels.indices.map { BranchRecord(label: labels[$0], result: results[$0], started: started[$0], finished: finished[$0]) }
    }

    func unfinished(_ renderer: ScheduleRenderer) -> [String] {
        labels.indices.compactMap { index in
            if finished[index] != nil { return nil }
            guard let step = started[index] else { return "\(labels[index]) never started" }
            return "\(labels[index]) started at #\(step) and has not returned"
        }
    }
}
