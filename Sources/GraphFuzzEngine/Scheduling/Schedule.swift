/// How a scheduled run ended.
public enum ScheduleOutcome<Value> {
    /// The body returned `Value` and nothing in the case could run any more without time passing.
    case completed(Value)
    /// The body never returned: nothing could run, no sleeper was waiting and no job came from another
    /// thread within the wait. `waiting` names the tasks that had not finished (the root of `Scheduler.run`,
    /// or the branches of `Scheduler.runConcurrently` that had not finished). The verdict is certain only when
    /// the run's `uncontrolled` is empty: otherwise work outside the scheduler may still have been on its way.
    case deadlock(waiting: [String])
    /// The run was stopped after this many jobs (a livelock, or a case longer than the limit).
    case jobLimit(Int)
}

extension ScheduleOutcome: Equatable where Value: Equatable {}
extension ScheduleOutcome: Sendable where Value: Sendable {}

/// One step of a schedule: the job that ran, where it was held, and what it enqueued.
public struct ScheduleStep: Sendable, Equatable {
    /// 1-based position in the run.
    public let index: Int
    /// Who ran: `A (task 1)`, `root (task 1)`, `actor Counter#1` (its queue drained), `resumption of task 3` …
    public let job: String
    /// Where the job was held: `case executor`, `main actor`, `no executor preference`, `timer after 10 ms`.
    public let place: String
    /// The step that enqueued the job (0: before the first step).
    public let queuedAt: Int
    /// The index picked among the runnable jobs in enqueue order (0 = the oldest), and how many there were.
    public let pick: Int
    /// How many jobs could run at the step.
    public let choices: Int
    /// The jobs this step enqueued, named like `job`, with where each waits: every task that suspended
    /// during the step and is waiting to be scheduled again.
    public let queued: [String]
    /// Marks the case's harness attached to the step (`A started`, `A finished`).
    public let notes: [String]
    /// The job came from another thread (outside work the scheduler does not control).
    public let external: Bool

    /// The step as one readable line; the place is named when it is not the case executor, and the pick
    /// when there was a choice, e.g. `#4 B (task 2) [queued #0, pick 1 in 0...1] → actor Counter#1; B started`.
    public var line: String {
        var text = "#\(index) \(job)\(place == ScheduleRenderer.caseExecutor ? "" : " on \(place)") [queued #\(queuedAt)"
        if choices > 1 { text += ", pick \(pick) in 0...\(choices - 1)" }
        text += external ? ", from another thread]" : "]"
        let effects = queued + notes
        if !effects.isEmpty { text += " → " + effects.joined(separator: "; ") }
        return text
    }
}

/// The result of a scheduled run: the outcome and the schedule that produced it.
public struct ScheduledRun<Value> {
    /// How the run ended: the body's value, a deadlock, or the job limit.
    public let outcome: ScheduleOutcome<Value>
    /// What ran, as plain values; rendered into `steps` on demand (a search reads only the outcome).
    let record: ScheduleRecord
    /// What the scheduler could not control, in plain words (empty when it controlled everything it saw): each
    /// hand-off of work to Dispatch (who, which call, in which function, at which job) and the way out; else
    /// jobs that came from other threads of the code under test.
    public let uncontrolled: [String]
    /// Virtual time (nanoseconds) when the run ended.
    public let virtualTime: UInt64
    /// Timers that had not fired when the body returned (a cancelled `Task.sleep` leaves its timer behind;
    /// a sleeper no task waited for never wakes). They are never run.
    public let pendingTimers: Int
    /// What the scheduler does not control: jobs that came from other threads, and work the case handed to
    /// Dispatch (counted at the hand-off, so a run that used Dispatch says so whichever thread won the race).
    @usableFromInline let externalJobs: Int
    /// A replayed pick (`Scheduler.Options.replaying`) outside the jobs that could run at its step.
    @usableFromInline let invalidPick: (step: Int, pick: Int, choices: Int)?

    init(outcome: ScheduleOutcome<Value>, record: ScheduleRecord, uncontrolled: [String], virtualTime: UInt64, pendingTimers: Int,
         externalJobs: Int = 0, invalidPick: (step: Int, pick: Int, choices: Int)? = nil) {
        self.outcome = outcome
        self.record = record
        self.uncontrolled = uncontrolled
        self.virtualTime = virtualTime
        self.pendingTimers = pendingTimers
        self.externalJobs = externalJobs
        self.invalidPick = invalidPick
    }

    /// The schedule as the choices it made: at each step where two or more jobs could run, the index of
    /// the one that ran (in enqueue order, 0 the oldest); trailing zeros left out. Replayed through
    /// `Scheduler.Options.replaying`, it runs the same interleaving whatever the strategy that drew it.
    public var picks: [Int] {
        var picks = record.steps.compactMap { $0.choices > 1 ? $0.pick : nil }
        while picks.last == 0 { picks.removeLast() }
        return picks
    }

    /// How many jobs ran.
    public var jobs: Int { record.steps.count }

    /// Every job that ran, in order.
    public var steps: [ScheduleStep] { ScheduleRenderer(record).steps }

    /// The schedule as readable lines, one per step.
    public var lines: [String] { steps.map(\.line) }

    /// The schedule as lanes: a header, then one row per step with a column per task, each cell naming the
    /// code the task ran in that step (function, the await it resumed after, where it suspended) and the
    /// actor it ran on; marks (`started`, `finished`, `cancelled`) in the lane they concern.
    public var lanes: [String] { ScheduleRenderer(record).lanes }

    /// The value the body returned, if it completed.
    public var value: Value? {
        if case .completed(let value) = outcome { return value }
        return nil
    }
}

extension ScheduledRun: Sendable where Value: Sendable {}

/// One concurrent branch of `Scheduler.runConcurrently`: a label for the schedule and its body.
public struct ScheduledBranch<Value: Sendable>: Sendable {
    /// Names the branch's task in the schedule (`A (task 1)`) and in its start and finish marks.
    public let label: String
    /// Whether the run may cancel the branch at one of its suspension points, a drawn choice
    /// (`Scheduler.Options.cancelWithin`; the point is in `BranchRecord.cancelPoint`).
    public let cancellable: Bool
    /// The branch's work: ordinary async code, run as a task of its own that prefers the case's executor.
    public var body: @Sendable () async -> Value {
        let run = self.run
        return { await run() }
    }
    /// The body as the branch's task calls it, on the task's executor. The harness's own branches (a concurrent step's
    /// actions) are made to run there without a hop at their start (`init(_:cancellable:running:)`); a body given to
    /// the public initialiser is a plain async function, which hops to the generic executor at its start.
    @usableFromInline let run: nonisolated(nonsending) @Sendable () async -> Value

    /// A branch labelled `label` that runs `body`, cancellable at a drawn point when `cancellable`.
    public init(_ label: String, cancellable: Bool = false, _ body: @escaping @Sendable () async -> Value) {
        self.label = label
        self.cancellable = cancellable
        run = { await body() }
    }

    /// A branch whose body runs on its caller's executor: the branch task's, without a hop at its start.
    @usableFromInline
    init(_ label: String, cancellable: Bool, running run: nonisolated(nonsending) @escaping @Sendable () async -> Value) {
        self.label = label
        self.cancellable = cancellable
        self.run = run
    }
}

/// What one branch did in a concurrent run: its result and the steps at which it started and finished.
/// Branch `a` finished before branch `b` started, in real time, when `a.finished! < b.started!`; a checker
/// of linearizability must respect that order and may reorder everything else.
public struct BranchRecord<Value: Sendable>: Sendable {
    /// The branch's label.
    public let label: String
    /// nil when the branch did not finish (deadlock or job limit).
    public let result: Value?
    /// The step during which the branch's body began (nil if it never ran).
    public let started: Int?
    /// The step during which the branch's body returned (nil if it did not).
    public let finished: Int?
    /// The cancellation point drawn (or replayed) for the branch: `n > 0` cancels it before the `n`-th job
    /// after the one it started in; 0 (and every branch that is not cancellable) never.
    public let cancelPoint: Int
    /// The step before which the branch was cancelled; nil when it was not (no point, or it had finished).
    public let cancelled: Int?
}

extension BranchRecord: Equatable where Value: Equatable {}

// MARK: Naming jobs

/// Renders a schedule record as public steps, naming tasks by their labels where the case gave them.
struct ScheduleRenderer {
    let record: ScheduleRecord

    init(_ record: ScheduleRecord) { self.record = record }

    var steps: [ScheduleStep] {
        var queued = record.queued[...]
        var notes = record.notes[...]
        var handoffs = record.handoffs[...]
        return record.steps.enumerated().map { offset, step in
            let index = offset + 1
            var enqueued: [String] = []
            while let next = queued.first, next.step == index {
                enqueued.append(self.queued(next.job))
                queued = queued.dropFirst()
            }
            var marks: [String] = []
            while let next = notes.first, next.step == index {
                marks.append(next.text)
                notes = notes.dropFirst()
            }
            while let next = handoffs.first, next.step == index {
                marks.append(handoff(next))
                handoffs = handoffs.dropFirst()
            }
            return ScheduleStep(index: index, job: name(step.job), place: place(step.job), queuedAt: step.job.queuedAt,
                                pick: step.pick, choices: step.choices, queued: enqueued, notes: marks,
                                external: step.job.external)
        }
    }

    static let caseExecutor = "case executor"

    /// A job enqueued during a step: its name, and its place unless it is the case executor.
    private func queued(_ job: JobRecord) -> String {
        let held = place(job)
        return name(job) + (held == Self.caseExecutor ? "" : " on \(held)")
    }

    /// `B (task 2) handed work to DispatchQueue.async in FakeNetwork.load(_:completion:) at job #6`.
    func handoff(_ handoff: Handoff) -> String {
        let who = handoff.task > 0 ? task(handoff.task) : handoff.task < 0 ? "actor \(record.actorNames[-handoff.task - 1])" : "the case"
        let place = DispatchHandoffs.handingFunction(handoff.callers).map { " in \($0.name)" } ?? ""
        return "\(who) handed work to \(handoff.kind)\(place) at job #\(handoff.step)"
    }

    /// `A (task 1)` (a branch), `root (task 1)` (the body of `Scheduler.run`), `task 3`.
    func task(_ number: Int) -> String {
        if let label = record.label(of: number) { return "\(label) (task \(number))" }
        if number == 1 && !record.branchesOnly { return "root (task 1)" }
        return "task \(number)"
    }

    /// A task by name, an actor's processing job as `actor Name#n`, other runtime jobs by what they do.
    func name(_ job: JobRecord) -> String {
        if job.task != 0 { return task(job.task) }
        if job.owner < 0 { return "actor \(record.actorNames[-job.owner - 1])" }
        let whose = job.owner == 0 ? "outside work" : task(job.owner)
        return job.kind == JobInspection.yieldResumption ? "resumption of \(whose)" : "runtime job (kind \(job.kind)) of \(whose)"
    }

    private func place(_ job: JobRecord) -> String {
        switch job.place {
        case .caseExecutor: Self.caseExecutor
        case .mainActor: "main actor"
        case .global: "no executor preference"
        case .timer: "timer after \(job.delay / VirtualClock.resolution) ms"
        }
    }
}
