#if compiler(>=6.3)
@_spi(ExperimentalScheduling) import _Concurrency
#endif

/// The task executor every task of a case prefers. It runs nothing itself: each job it is given is held by
/// the case's scheduler until a choice picks it.
///
/// The preference is what brings a case's work to the scheduler: a task that prefers this executor runs its
/// non-isolated code here, its child tasks (`async let`, task groups) inherit the preference, and a default
/// actor it hops to schedules its processing job here too. `Task.yield` and resumed continuations follow
/// the preference as well.
@available(macOS 15.0, *)
final class CaseTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// Strong on purpose: a task that prefers this executor retains it, so a job that arrives after the
    /// case still finds the core (which drops it). The core keeps only unowned references back.
    let core: SchedulerCore
    /// Kept alive here: main-actor jobs refer to it unowned, and their tasks retain this executor.
    let mainActor: MainActorStandIn

    init(core: SchedulerCore) {
        self.core = core
        mainActor = MainActorStandIn(core: core)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        core.accept(UnownedJob(job), place: .caseExecutor)
    }
}

/// The case's main actor. While a scheduler drives a thread, `MainActor.shared.unownedExecutor` answers
/// with this executor (see `RuntimeHooks`), so every hop to `@MainActor` made by the case's code lands here
/// and is held like any other job. The case's main-actor jobs are serial among themselves (the scheduler
/// runs one job at a time); they are not serialized with the process's real main thread.
@available(macOS 15.0, *)
final class MainActorStandIn: SerialExecutor, @unchecked Sendable {
    let core: SchedulerCore

    init(core: SchedulerCore) { self.core = core }

    func enqueue(_ job: consuming ExecutorJob) {
        core.accept(UnownedJob(job), place: .mainActor)
    }
}

#if compiler(>=6.3)
/// `Task.sleep` asks the current executor to hold its wake-up job until a deadline when that executor can
/// schedule (Swift 6.3); otherwise it goes to the default executor's timer, outside the case. Both of the
/// case's executors take the job and hand it to the scheduler's virtual clock.
@available(macOS 26.4, *)
protocol VirtualClockExecutor: SchedulingExecutor {
    var core: SchedulerCore { get }
}

@available(macOS 26.4, *)
extension VirtualClockExecutor {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        core.acceptTimer(UnownedJob(job), delay: VirtualClock.nanoseconds(delay))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        core.acceptTimer(UnownedJob(job), delay: VirtualClock.nanoseconds(clock.now.duration(to: instant)))
    }
}

@available(macOS 26.4, *)
extension CaseTaskExecutor: VirtualClockExecutor {}

@available(macOS 26.4, *)
extension MainActorStandIn: VirtualClockExecutor {}
#endif

/// The case's clock: time passes only when nothing can run, jumping to the next sleeper's deadline
/// ("an infinitely fast processor"). A delay is rounded up to whole milliseconds: `Task.sleep(for:)` and
/// `Clock.sleep(for:)` hand over a deadline (`clock.now + duration`, read a few microseconds before the
/// sleep is enqueued), and rounding up turns it back into the whole-millisecond duration whatever those
/// microseconds were. What rounding cannot undo: a deadline read a millisecond or more of real time before
/// the sleep is enqueued (computed before other work, or the thread descheduled in between) sleeps that
/// much less.
enum VirtualClock {
    static let resolution: UInt64 = 1_000_000

    /// A clock duration as whole nanoseconds of virtual time, rounded up to `resolution`; 0 when it is
    /// negative or not a `Swift.Duration` (a custom clock), which wakes the sleeper at the current time.
    static func nanoseconds<D: DurationProtocol>(_ duration: D) -> UInt64 {
        guard let duration = duration as? Duration, duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
            &+ (attoseconds % 1_000_000_000 == 0 ? 0 : 1)
        return (nanoseconds + resolution - 1) / resolution * resolution
    }

    @_silgen_name("swift_get_time")
    private static func getTime(_ seconds: UnsafeMutablePointer<Int64>, _ nanoseconds: UnsafeMutablePointer<Int64>, _ clock: Int32)

    /// The current time of the runtime's clock `clock` (1 continuous, 2 suspending), as the runtime's C
    /// entry points give deadlines.
    static func now(clock: Int32) -> Duration {
        var seconds: Int64 = 0, nanoseconds: Int64 = 0
        getTime(&seconds, &nanoseconds, clock)
        return .seconds(seconds) + .nanoseconds(nanoseconds)
    }
}
