#if !GRAPHFUZZ_NO_PROCESSES
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads that watch a process from the side (its parent, a stop it must reach): POSIX threads with a small
/// stack, detached, as `Foundation.Thread` with `stackSize` set, which FoundationEssentials does not have.
enum WatcherThread {
    /// Starts `body` on a new detached thread with a stack of `stackSize` bytes.
    static func start(stackSize: Int = 1 << 16, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let started = pthread_create(&thread, &attributes, { context in
            #if canImport(Glibc)
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            #else
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            #endif
            body.run()
            return nil
        }, context)
        precondition(started == 0, "cannot start a watcher thread (error \(started))")
    }

    /// Sleeps `seconds` on this thread; a signal handler that runs meanwhile does not cut it short
    /// (`Thread.sleep(forTimeInterval:)`).
    static func sleep(seconds: Double) {
        let whole = Int(seconds)
        var request = timespec(tv_sec: whole, tv_nsec: Int((seconds - Double(whole)) * 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
#endif
