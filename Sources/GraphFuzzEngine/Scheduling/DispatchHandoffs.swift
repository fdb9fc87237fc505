#if os(Linux)
import Glibc

/// Sees the code under test hand work to Dispatch while a scheduler drives its thread, when it hands it, so a
/// case that does is refused the same way on every run.
///
/// Why at the hand-off: a completion handler that Dispatch runs on another thread and that resumes a
/// continuation races the task awaiting it. When the handler resumes first, the task never suspends and
/// nothing reaches the scheduler; when the task suspends first, the resumption arrives from the other
/// thread later. Which happens depends on the machine's timing (under load, one run in four takes the first
/// way on a 2-core machine), so a scheduler that only sees what arrives gives a verdict that depends on
/// timing. The call to Dispatch itself happens on the driving thread, in the case's own order.
///
/// How: Swift code reaches Dispatch through the `Dispatch` module's library (`libswiftDispatch.so`), which
/// calls `dispatch_async`, `dispatch_after`, `dispatch_group_async` and `dispatch_barrier_async` through its
/// import slots. Those slots are pointed at functions here that note the hand-off when the calling thread
/// drives a case and call the real function in every case: Dispatch runs the work as it always does.
/// Installed once per process with the runtime hooks; other threads see no change but a thread-local read.
enum DispatchHandoffs {
    private typealias Async = @convention(c) (OpaquePointer?, UnsafeRawPointer?) -> Void
    private typealias After = @convention(c) (UInt64, OpaquePointer?, UnsafeRawPointer?) -> Void
    private typealias GroupAsync = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?) -> Void
    private typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32

    // The real functions, set once before any slot points here.
    nonisolated(unsafe) private static var async: Async?
    nonisolated(unsafe) private static var barrierAsync: Async?
    nonisolated(unsafe) private static var after: After?
    nonisolated(unsafe) private static var groupAsync: GroupAsync?
    private static let backtrace: Backtrace? = LoadedImages.function("backtrace")

    /// Points the Dispatch module's import slots here; returns whether it found them.
    static func install() -> Bool {
        guard let library = LoadedImages.image(endingWith: "/libswiftDispatch.so") else { return false }
        let dispatch = dlopen("libdispatch.so", RTLD_NOW | RTLD_NOLOAD)
        func real<F>(_ name: String) -> F? {
            guard let address = dlsym(dispatch, name) ?? dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(address, to: F.self)
        }
        async = real("dispatch_async")
        barrierAsync = real("dispatch_barrier_async")
        after = real("dispatch_after")
        groupAsync = real("dispatch_group_async")
        guard async != nil, barrierAsync != nil, after != nil, groupAsync != nil else { return false }
        let replacements: [String: UInt] = [
            "dispatch_async": unsafeBitCast({ queue, block in
                DispatchHandoffs.note("DispatchQueue.async")
                DispatchHandoffs.async!(queue, block)
            } as Async, to: UInt.self),
            "dispatch_barrier_async": unsafeBitCast({ queue, block in
                DispatchHandoffs.note("DispatchQueue.async(flags: .barrier)")
                DispatchHandoffs.barrierAsync!(queue, block)
            } as Async, to: UInt.self),
            "dispatch_after": unsafeBitCast({ when, queue, block in
                DispatchHandoffs.note("DispatchQueue.asyncAfter")
                DispatchHandoffs.after!(when, queue, block)
            } as After, to: UInt.self),
            "dispatch_group_async": unsafeBitCast({ group, queue, block in
                DispatchHandoffs.note("DispatchQueue.async(group:)")
                DispatchHandoffs.groupAsync!(group, queue, block)
            } as GroupAsync, to: UInt.self),
        ]
        let slots = LoadedImages.importSlots(base: library.base, dynamic: library.dynamic, named: Set(replacements.keys))
        guard slots["dispatch_async"] != nil else { return false }
        let mappings = LoadedImages.mappings()
        for (name, places) in slots {
            for slot in places { LoadedImages.write(replacements[name]!, into: slot, mappings: mappings) }
        }
        return true
    }

    /// Records a hand-off on the scheduler driving this thread, with the return addresses that lead to it.
    private static func note(_ kind: String) {
        guard let core = DriverBinding.current else { return }
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 12)
        let count = frames.withUnsafeMutableBufferPointer { backtrace?($0.baseAddress, Int32($0.count)) ?? 0 }
        core.noteHandoff(kind, callers: frames.prefix(Int(count)).map { UInt(bitPattern: $0) })
    }

    /// The first of `callers` past the Dispatch module's frames: the code that handed the work over.
    static func handingFunction(_ callers: [UInt]) -> Symbolizer.Function? {
        var inDispatch = false
        for address in callers {
            guard let file = LoadedImages.info(address)?.file.map({ String(cString: $0) }) else { continue }
            if file.hasSuffix("/libswiftDispatch.so") || file.hasSuffix("/libdispatch.so") {
                inDispatch = true
            } else if inDispatch {
                // A return address points after the call: look up the byte before it.
                return Symbolizer.function(at: address - 1)
            }
        }
        return nil
    }
}
#else
enum DispatchHandoffs {
    static func install() -> Bool { false }
    static func handingFunction(_ callers: [UInt]) -> Symbolizer.Function? { nil }
}
#endif
