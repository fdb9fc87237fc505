#if compiler(>=6.3)
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// The process's default executor once a scheduler has run: the platform's own for every thread that drives no
/// case, the driving case's scheduler for the thread that does.
///
/// Why: since Swift 6.2 `Task.sleep`, `Clock.sleep` and `Task.yield` ask the *current* executor to hold their
/// job (`Task.currentSchedulableExecutor`): the actor's executor, else the task's preferred executor, else the
/// thread's task executor, else `Task.defaultExecutor`. An unstructured `Task {}` made inside a case has no
/// executor preference (it is not inherited), so when such a task sleeps while isolated to a default actor —
/// the in-flight `Task` a cache stores in its dictionary — the sleep reaches `Task.defaultExecutor` directly,
/// past every runtime hook, and would wake on a real timer on another thread. Swift 6.2's executor factories
/// (`_createExecutors(factory:)`) let a program choose that default executor; this one routes by thread.
///
/// Installed once per process, the first time a scheduler runs (`RuntimeHooks.installed`); the platform's
/// executors are captured first and keep doing all the work of threads that drive no case. The runtime keeps
/// the default executor in a plain global that other threads may read while it is replaced, so this class
/// keeps no state of its own: a reader that saw half of the switch calls one class's code with the other's
/// object, and both classes' code reads only static storage.
@available(macOS 26.4, *)
final class RoutingDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The default executor this one replaced.
    nonisolated(unsafe) private static var platform: (any TaskExecutor)?
    nonisolated(unsafe) private static var platformScheduling: (any SchedulingExecutor)?
    nonisolated(unsafe) fileprivate static var platformMain: (any MainExecutor)?
    fileprivate static let shared = RoutingDefaultExecutor()

    /// Replaces the process's default executor with a router (the main executor stays the platform's) and
    /// returns true. Does nothing and returns false when the platform's default executor cannot schedule (a
    /// program's own executor factory): its sleeps then wake where that executor sends them.
    static func install() -> Bool {
        let current = Task.defaultExecutor
        guard let scheduling = current as? any SchedulingExecutor else { return false }
        platform = current
        platformScheduling = scheduling
        platformMain = MainActor.executor
        _createExecutors(factory: RoutingExecutorFactory.self)
        return true
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if let core = DriverBinding.current {
            core.accept(UnownedJob(job), place: .global)
        } else {
            Self.platform!.enqueue(job)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        if let core = DriverBinding.current {
            core.acceptTimer(UnownedJob(job), delay: VirtualClock.nanoseconds(delay))
        } else {
            Self.platformScheduling!.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        if let core = DriverBinding.current {
            core.acceptTimer(UnownedJob(job), delay: VirtualClock.nanoseconds(clock.now.duration(to: instant)))
        } else {
            Self.platformScheduling!.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
        }
    }
}

/// What `_createExecutors(factory:)` installs: the router as the default executor, the platform's main
/// executor unchanged.
@available(macOS 26.4, *)
private enum RoutingExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { RoutingDefaultExecutor.platformMain! }
    static var defaultExecutor: any TaskExecutor { RoutingDefaultExecutor.shared }
}
#endif
