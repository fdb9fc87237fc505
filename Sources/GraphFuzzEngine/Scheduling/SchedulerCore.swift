/// Where a held job was handed to the scheduler.
enum JobPlace: UInt8, Sendable {
    /// The case's task executor (the executor preference of the case's tasks).
    case caseExecutor
    /// The case's stand-in for the main actor.
    case mainActor
    /// The global enqueue hook: a task without the case's executor preference.
    case global
    /// A sleeper's wake-up, held by the virtual clock until its deadline.
    case timer
}

/// One job the scheduler holds.
struct HeldJob {
    let job: UnownedJob
    let about: JobRecord

    var owner: Int { about.owner }
}

/// What the schedule record keeps of a job.
struct JobRecord: Sendable {
    /// The case-local number of the job's task, or 0 when the job is not a task.
    let task: Int
    let kind: UInt8
    let place: JobPlace
    /// The step during which the job was enqueued (0: before the first step).
    let queuedAt: Int
    /// Who the job works for, as PCT gives priorities and the schedule names jobs: the job's own task
    /// (its number, > 0); for an actor's processing job, the actor (−its number); for other jobs (a
    /// `Task.yield` resumption) the task that enqueued it; 0 for outside work.
    let owner: Int
    /// Enqueued from a thread other than the driver's.
    let external: Bool
    /// Virtual nanoseconds a timer job was asked to wait.
    let delay: UInt64
}

/// A task of the case the core has seen, kept alive until the case ends so its header can be read between
/// steps: where it will resume, as last read.
private struct TrackedTask {
    let id: UInt64
    let number: Int
    let task: UnsafeRawPointer
    var resume: UInt
}

/// A job that arrived from another thread, kept raw until the driver admits it.
private struct Arrival {
    let job: UnownedJob
    let place: JobPlace
    let delay: UInt64
}

/// The state of one scheduled case: the held jobs, the virtual clock, the task numbering and the record.
///
/// Everything but the inbox is touched by the driving thread only: the scheduler's loop and the jobs it
/// runs (which run on that thread, one at a time). Jobs that other threads hand over wait in the inbox,
/// behind a lock, until the driver admits them, which it does only when nothing in the case can run:
/// outside work then behaves as if it were slower than any job of the case, and a run that uses it stays
/// replayable as long as one outside job at a time is outstanding.
final class SchedulerCore: @unchecked Sendable {
    // Driving-thread state. Each job runs to completion before the next starts, so no access overlaps
    // another: dynamic exclusivity checks are turned off here, as in `Draw`, for the cost of a job.

    /// Unowned references to the case's executors (the executors own the core, not the reverse).
    @exclusivity(unchecked) private(set) var taskExecutor: UnownedTaskExecutor
    @exclusivity(unchecked) private(set) var mainActor: UnownedSerialExecutor

    @exclusivity(unchecked) private(set) var runnable: [HeldJob] = []
    /// Sleepers by deadline, then enqueue order.
    @exclusivity(unchecked) private var timers: [(deadline: UInt64, held: HeldJob)] = []
    /// Virtual nanoseconds since the case began.
    @exclusivity(unchecked) private(set) var now: UInt64 = 0
    /// The step running now (1-based; 0 before the first).
    @exclusivity(unchecked) private(set) var step = 0
    /// The owner of the job running now.
    @exclusivity(unchecked) private var runningOwner = 0
    /// The last task looked up: most jobs belong to the task whose job ran just before.
    @exclusivity(unchecked) private var lastTask: (id: UInt64, number: Int) = (0, 0)
    @exclusivity(unchecked) private(set) var taskCount = 0
    /// The case's actors in order of first appearance: actor n is at index n − 1. A run meets a few, so a search
    /// of the array costs less than hashing into a dictionary made for each run.
    @exclusivity(unchecked) private var actors: [ObjectIdentifier] = []
    /// Tasks first seen through the global hook: created without the case's executor preference.
    @exclusivity(unchecked) private(set) var unpreferredTasks: [Int] = []
    /// What ran, what it enqueued, the harness's marks, and the names of tasks and actors.
    @exclusivity(unchecked) private(set) var record = ScheduleRecord()
    @exclusivity(unchecked) private(set) var externalJobs = 0
    /// Every task seen, retained (`close` releases them), in order of first sight: task n is at index n − 1 (a
    /// run makes a few, so they are looked up by a search of this array, not a dictionary made for each run).
    @exclusivity(unchecked) private var tracked: [TrackedTask] = []

    private let inbox = Condition()
    private var arrivals: [Arrival] = []
    private var closed = false

    init() {
        taskExecutor = unsafeBitCast((0, 0), to: UnownedTaskExecutor.self)
        mainActor = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)
        // Room for a short run's jobs, so its first steps do not grow the arrays one allocation at a time.
        runnable.reserveCapacity(4)
        record.steps.reserveCapacity(8)
        record.queued.reserveCapacity(8)
    }

    @available(macOS 15.0, *)
    func attach(_ executor: CaseTaskExecutor) {
        taskExecutor = executor.asUnownedTaskExecutor()
        mainActor = executor.mainActor.asUnownedSerialExecutor()
    }

    // MARK: Taking jobs

    /// Holds `job`. Called by the case's executors and the global hook, on any thread.
    func accept(_ job: UnownedJob, place: JobPlace, delay: UInt64 = 0) {
        if DriverBinding.isDriving(self) {
            hold(job, place: place, delay: delay, external: false)
            return
        }
        inbox.lock()
        if !closed { arrivals.append(Arrival(job: job, place: place, delay: delay)) }
        inbox.signal()
        inbox.unlock()
    }

    /// Holds a sleeper's wake-up job until the virtual clock has advanced by `delay` nanoseconds.
    func acceptTimer(_ job: UnownedJob, delay: UInt64) {
        accept(job, place: .timer, delay: delay)
    }

    private func hold(_ job: UnownedJob, place: JobPlace, delay: UInt64, external: Bool) {
        let id = JobInspection.taskID(job)
        let task = id == 0 ? 0 : number(id, task: unsafeBitCast(job, to: UnsafeRawPointer.self), seenFirstAt: place)
        let owner: Int
        if task != 0 {
            owner = task
        } else if let actor = JobInspection.actor(job) {
            owner = -number(actor)
        } else {
            owner = currentTaskNumber() ?? runningOwner
        }
        let about = JobRecord(task: task, kind: JobInspection.kind(job), place: place, queuedAt: step, owner: owner,
                              external: external, delay: delay)
        let held = HeldJob(job: job, about: about)
        if external { externalJobs += 1 }
        if step > 0 { record.queued.append((step, about)) }
        if place == .timer {
            let deadline = now + delay
            let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
            timers.insert((deadline, held), at: index)
        } else {
            runnable.append(held)
        }
    }

    /// The case-local number of the task with `id` at `task`, numbering (and tracking) it at first sight.
    private func number(_ id: UInt64, task: UnsafeRawPointer, seenFirstAt place: JobPlace) -> Int {
        if lastTask.id == id { return lastTask.number }
        let number: Int
        if let known = tracked.lastIndex(where: { $0.id == id }) {
            number = tracked[known].number
        } else {
            taskCount += 1
            number = taskCount
            if place == .global { unpreferredTasks.append(number) }
            _ = Unmanaged<AnyObject>.fromOpaque(task).retain()
            let resume = JobInspection.resumeFunction(task)
            tracked.append(TrackedTask(id: id, number: number, task: task, resume: resume))
            record.firstResume.append(resume)
        }
        lastTask = (id, number)
        return number
    }

    private func number(_ actor: AnyObject) -> Int {
        let identity = ObjectIdentifier(actor)
        if let known = actors.firstIndex(of: identity) { return known + 1 }
        let name = _typeName(type(of: actor), qualified: false)
        let count = record.actorNames.reduce(0) { $0 + ($1.hasPrefix(name + "#") ? 1 : 0) }
        record.actorNames.append("\(name)#\(count + 1)")
        actors.append(identity)
        return actors.count
    }

    // MARK: Driving

    /// Admits the oldest job that another thread handed over, waiting up to `timeout` for one; returns
    /// whether one came. One at a time: the case runs as far as it can with it before the next is admitted.
    func admitArrival(waitingUpTo timeout: Duration) -> Bool {
        let deadline = Condition.deadline(after: timeout)
        inbox.lock()
        while arrivals.isEmpty {
            if !inbox.wait(until: deadline) { break }
        }
        let arrival = arrivals.isEmpty ? nil : arrivals.removeFirst()
        inbox.unlock()
        guard let arrival else { return false }
        hold(arrival.job, place: arrival.place, delay: arrival.delay, external: true)
        return true
    }

    /// Advances the virtual clock to the earliest deadline and makes every sleeper due then runnable, in
    /// enqueue order. Returns false when no sleeper is waiting.
    func advanceClock() -> Bool {
        guard let first = timers.first else { return false }
        now = first.deadline
        while let next = timers.first, next.deadline == now {
            runnable.append(next.held)
            timers.removeFirst()
        }
        return true
    }

    var sleepers: Int { timers.count }

    /// Removes and runs the runnable job at `index` as the next step.
    func runJob(at index: Int, pick: Int) {
        let held = runnable.remove(at: index)
        step += 1
        runningOwner = held.owner
        record.steps.append(StepRecord(job: held.about, pick: pick, choices: runnable.count + 1))
        switch held.about.place {
        case .mainActor:
            held.job.runSynchronously(isolatedTo: mainActor, taskExecutor: taskExecutor)
        case .caseExecutor, .global, .timer:
            held.job.runSynchronously(on: taskExecutor)
        }
        runningOwner = 0
        noteProgress()
    }

    /// Records the tasks whose resume address moved in the step just run: each ran there, then suspended
    /// elsewhere. (The task whose own job ran is known from the step; `ScheduleRenderer.lanes` adds it when its
    /// address did not move: it returned, or suspended where it had resumed.)
    private func noteProgress() {
        for index in tracked.indices {
            let now = JobInspection.resumeFunction(tracked[index].task)
            if now != tracked[index].resume {
                record.ran.append(Ran(step: step, task: tracked[index].number, from: tracked[index].resume, to: now))
                tracked[index].resume = now
            }
        }
    }

    /// Stops taking jobs: anything handed over after the case is dropped (never run), so no job of the
    /// case ever runs outside its scheduler.
    func close() {
        inbox.lock()
        closed = true
        arrivals.removeAll()
        inbox.unlock()
        for task in tracked { Unmanaged<AnyObject>.fromOpaque(task.task).release() }
        tracked.removeAll()
    }

    /// Notes that the running job handed work to Dispatch (`DispatchHandoffs`).
    func noteHandoff(_ kind: String, callers: [UInt]) {
        record.handoffs.append(Handoff(step: step, task: currentTaskNumber() ?? runningOwner, kind: kind, callers: callers))
    }

    // MARK: Marks from the case's own code

    /// Marks the run as the harness's group of labelled branches (`ScheduleRecord.branchesOnly`).
    func drawsBranchesOnly() {
        record.branchesOnly = true
        // Each branch marks its start and its finish: room for two branches' marks at once.
        record.notes.reserveCapacity(4)
    }

    /// Attaches `label event` (`A cancelled`) to step `step` (the one about to run, when the scheduler's loop notes
    /// something between steps).
    func note(_ label: String, _ event: StaticString, atStep step: Int) {
        record.notes.append(StepNote(step: step, label: label, event: event))
    }

    /// Attaches `label event` (`A started`) to the running step and, with `namesTask`, names the task running it
    /// `label`. Called from a job the scheduler runs (the driving thread).
    func mark(_ label: String, _ event: StaticString, namesTask: Bool = false) {
        guard step > 0 else { return }
        record.notes.append(StepNote(step: step, label: label, event: event))
        if namesTask, let task = currentTaskNumber() { record.name(task, label) }
    }

    /// The case-local number of the task running the current code, numbering it if the case has not seen a
    /// job of its own yet (a task whose first job went straight to an actor's queue); nil outside a task.
    private func currentTaskNumber() -> Int? {
        let current: UnsafeRawPointer? = withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UnsafeRawPointer.self) } }
        guard let task = current else { return nil }
        let id = JobInspection.taskID(unsafeBitCast(task, to: UnownedJob.self))
        return id == 0 ? nil : number(id, task: task, seenFirstAt: .caseExecutor)
    }
}

/// The record of a run: what each step ran, what each step enqueued and the harness's marks (both in step
/// order), and the names of tasks and actors. Kept as plain values; `ScheduleRenderer` turns it into text
/// only when a report asks for it.
struct ScheduleRecord: Sendable {
    var steps: [StepRecord] = []
    var queued: [(step: Int, job: JobRecord)] = []
    var notes: [StepNote] = []
    /// Labels the harness gave tasks (a concurrent run's branches), with their case-local task numbers.
    private(set) var labels: [(task: Int, label: String)] = []
    /// `TypeName#n` for actor number n (index n − 1), numbered in order of first appearance.
    var actorNames: [String] = []
    /// Work the case's jobs handed to Dispatch, in order.
    var handoffs: [Handoff] = []
    /// Tasks whose resume address moved in a step, in step order (`SchedulerCore.noteProgress`).
    var ran: [Ran] = []
    /// Each task's resume address when first seen (index n − 1 for task n).
    var firstResume: [UInt] = []
    /// The run is the harness's group of labelled branches (`Scheduler.runConcurrently`), each a task of its own from
    /// task 1 on: there is no root task.
    var branchesOnly = false

    /// The label the harness gave task `task`, if any.
    func label(of task: Int) -> String? { labels.last { $0.task == task }?.label }

    /// Names task `task` `label` (a later name replaces an earlier one).
    mutating func name(_ task: Int, _ label: String) { labels.append((task, label)) }
}

/// A mark the harness attached to a step (`A started`), written out only when a report reads it.
struct StepNote: Sendable {
    let step: Int
    let label: String
    let event: StaticString

    var text: String { "\(label) \(event)" }
}

/// A task that ran in a step: the address it resumed at and the one it will resume at next (0: it returned, or
/// suspended at the address it resumed at).
struct Ran: Sendable {
    let step: Int
    let task: Int
    let from: UInt
    let to: UInt
}

/// Work a job handed to Dispatch: the step, the task (or owner) that ran it, the call (`DispatchQueue.async`)
/// and the return addresses leading to it (named only when a report asks).
struct Handoff: Sendable {
    let step: Int
    let task: Int
    let kind: String
    let callers: [UInt]
}

/// What one step ran.
struct StepRecord: Sendable {
    let job: JobRecord
    /// The index picked among the runnable jobs (in enqueue order), and how many there were.
    let pick: Int
    let choices: Int
}
