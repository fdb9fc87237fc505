#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift runtime hooks the scheduler needs, installed once per process, and the thread binding that
/// tells them which scheduler (if any) is driving the calling thread.
///
/// Why process-wide: the runtime keeps its hooks in process globals (`swift_task_enqueueGlobal_hook`,
/// `swift_task_getMainExecutor_hook`, …); there is no per-task or per-thread variant. They are installed the
/// first time a scheduler runs (a `static let`, so exactly once, thread-safely) and chain to whatever hook
/// was there before. Each hook asks the calling thread's binding first: on a thread that is not driving a
/// case (every other thread of the process, other tests included) it behaves exactly as before.
///
/// - `swift_task_enqueueGlobal_hook` sees jobs of tasks that have no executor preference: an unstructured
///   `Task {}` or `Task.detached` created inside a case, and actor jobs scheduled on their behalf.
/// - `swift_task_enqueueGlobalWithDelay_hook` and `swift_task_enqueueGlobalWithDeadline_hook` see sleeps
///   handed to the global executor through the runtime's C entry points (what `Task.sleep` does on runtimes
///   without executors written in Swift, before 6.2): they wait on the case's virtual clock.
/// - `swift_task_getMainExecutor_hook` is consulted whenever code asks for the main actor's executor
///   (`MainActor.shared.unownedExecutor`, which every hop to `@MainActor` evaluates). On a driving thread it
///   answers with the case's stand-in main executor, so main-actor jobs are enqueued there. The enqueue
///   hooks cannot do this: since Swift 6.2 a job for the main actor goes straight to the main executor's
///   own `enqueue`, and neither the global nor the main-executor enqueue hook sees it.
/// - The process's default executor (`RoutingDefaultExecutor`, Swift 6.3): sleeps and yields that find no
///   executor of the case to ask go to `Task.defaultExecutor` directly, past every hook.
/// - The `Dispatch` module's calls into libdispatch (`DispatchHandoffs`, Linux): work handed to a queue.
enum RuntimeHooks {
    typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
    typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void
    typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
    typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void
    typealias MainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
    typealias MainExecutorHook = @convention(thin) (MainExecutorOriginal) -> UnownedSerialExecutor

    /// The hooks that were installed before ours, called for threads that drive no case.
    struct Installed {
        let previousEnqueue: EnqueueHook?
        let previousDelay: DelayHook?
        let previousDeadline: DeadlineHook?
        let previousMainExecutor: MainExecutorHook?
        /// Whether the process's default executor routes by thread (`RoutingDefaultExecutor`).
        let routesDefaultExecutor: Bool
        /// Whether hand-offs to Dispatch are seen (`DispatchHandoffs`; Linux).
        let seesDispatch: Bool
    }

    /// Installs the hooks on first use. Fails loudly if the runtime does not export them: running without
    /// them would silently leave main-actor, unstructured and sleeping work outside the scheduler.
    static let installed: Installed = {
        let process = dlopen(nil, RTLD_NOW)
        func slot<Hook>(_ name: String, _: Hook.Type) -> UnsafeMutablePointer<Hook?> {
            guard let address = dlsym(process, name) else { fatalError("the Swift runtime does not export \(name)") }
            return address.assumingMemoryBound(to: Hook?.self)
        }
        let enqueue = slot("swift_task_enqueueGlobal_hook", EnqueueHook.self)
        let delay = slot("swift_task_enqueueGlobalWithDelay_hook", DelayHook.self)
        let deadline = slot("swift_task_enqueueGlobalWithDeadline_hook", DeadlineHook.self)
        let main = slot("swift_task_getMainExecutor_hook", MainExecutorHook.self)
        var routes = false
        #if compiler(>=6.3)
        if #available(macOS 26.4, *) { routes = RoutingDefaultExecutor.install() }
        #endif
        let seesDispatch = DispatchHandoffs.install()
        let installed = Installed(previousEnqueue: enqueue.pointee, previousDelay: delay.pointee, previousDeadline: deadline.pointee,
                                  previousMainExecutor: main.pointee, routesDefaultExecutor: routes, seesDispatch: seesDispatch)
        enqueue.pointee = { job, original in
            if let core = DriverBinding.current {
                core.accept(job, place: .global)
            } else if let previous = RuntimeHooks.installed.previousEnqueue {
                previous(job, original)
            } else {
                original(job)
            }
        }
        delay.pointee = { nanoseconds, job, original in
            if let core = DriverBinding.current {
                core.acceptTimer(job, delay: VirtualClock.nanoseconds(Duration.nanoseconds(nanoseconds)))
            } else if let previous = RuntimeHooks.installed.previousDelay {
                previous(nanoseconds, job, original)
            } else {
                original(nanoseconds, job)
            }
        }
        deadline.pointee = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
            if let core = DriverBinding.current {
                let deadline = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
                core.acceptTimer(job, delay: VirtualClock.nanoseconds(deadline - VirtualClock.now(clock: clock)))
            } else if let previous = RuntimeHooks.installed.previousDeadline {
                previous(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original)
            } else {
                original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
            }
        }
        main.pointee = { original in
            if let core = DriverBinding.current { return core.mainActor }
            if let previous = RuntimeHooks.installed.previousMainExecutor { return previous(original) }
            return original()
        }
        return installed
    }()
}

/// Which scheduler drives the calling thread: a thread-local slot (a POSIX key created once), set while a
/// scheduler runs its loop and restored afterwards, so a case can even be driven from inside another task.
enum DriverBinding {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// The scheduler driving this thread, if any.
    static var current: SchedulerCore? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<SchedulerCore>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Binds `core` to this thread and returns what was bound before (for `restore`).
    static func bind(_ core: SchedulerCore) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(core).toOpaque())
        return previous
    }

    static func restore(_ previous: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, previous)
    }

    /// Whether `core` drives the calling thread (a cheaper test than `current === core`).
    static func isDriving(_ core: SchedulerCore) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(core).toOpaque()
    }
}

/// What the scheduler reads from a job it holds. The task ID comes from the runtime's exported accessor;
/// the kind from the job's flags word, whose place the runtime's ABI fixes for schedulers ("do not move":
/// after the heap-object header and two scheduler-private words).
enum JobInspection {
    @_silgen_name("swift_task_getJobTaskId")
    private static func taskID(of job: UnownedJob) -> UInt64

    /// The job's task ID, or 0 when the job is not a task (an actor's processing job, a resumption).
    static func taskID(_ job: UnownedJob) -> UInt64 { taskID(of: job) }

    /// The job kind: 0 for a task; the runtime's reserved kinds start at 0xC0.
    static func kind(_ job: UnownedJob) -> UInt8 {
        let raw = unsafeBitCast(job, to: UnsafeRawPointer.self)
        return raw.load(fromByteOffset: 4 * MemoryLayout<UnsafeRawPointer>.size, as: UInt8.self)
    }

    /// The function a task's job resumes at (the job header's `ResumeTask` word, after the heap-object
    /// header, the two scheduler-private words, the flags and id, the voucher and a reserved word): the
    /// task's entry, or the resumption of an `await`. Only for jobs that are tasks.
    static func resumeFunction(_ task: UnsafeRawPointer) -> UInt {
        task.load(fromByteOffset: 7 * MemoryLayout<UnsafeRawPointer>.size, as: UInt.self)
    }

    /// Kinds the runtime gives its own jobs (`JobKind` in the runtime's ABI).
    static let actorProcessing: UInt8 = 0xC1
    static let yieldResumption: UInt8 = 0xC3

    /// The default actor whose queue a processing job drains (a job of kind `actorProcessing`: the
    /// runtime's out-of-line processing job, which holds a strong reference to its actor in the word after
    /// the eight-word job header). nil for other jobs, and on 32-bit platforms.
    static func actor(_ job: UnownedJob) -> AnyObject? {
        guard MemoryLayout<UnsafeRawPointer>.size == 8, kind(job) == actorProcessing else { return nil }
        let raw = unsafeBitCast(job, to: UnsafeRawPointer.self)
        guard let actor = raw.load(fromByteOffset: 64, as: UnsafeRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(actor).takeUnretainedValue()
    }
}
