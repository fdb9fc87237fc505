#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock with a condition to wait on for a while, as `NSCondition` (which FoundationEssentials does not have): a POSIX
/// mutex and condition variable, the wait's deadline on the system clock as `NSCondition.wait(until:)` takes it.
final class Condition: @unchecked Sendable {
    /// The mutex, then the condition, in one allocation (a scheduled step makes a condition, so each allocation counts).
    private let storage: UnsafeMutableRawPointer
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        let conditionOffset = (MemoryLayout<pthread_mutex_t>.size + MemoryLayout<pthread_cond_t>.alignment - 1)
            / MemoryLayout<pthread_cond_t>.alignment * MemoryLayout<pthread_cond_t>.alignment
        storage = .allocate(byteCount: conditionOffset + MemoryLayout<pthread_cond_t>.size,
                            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment))
        mutex = storage.initializeMemory(as: pthread_mutex_t.self, repeating: pthread_mutex_t(), count: 1)
        condition = (storage + conditionOffset).initializeMemory(as: pthread_cond_t.self, repeating: pthread_cond_t(), count: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        storage.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes one thread waiting on the condition.
    func signal() { pthread_cond_signal(condition) }

    /// Waits, holding the lock, until the condition is signalled (or wakes spuriously) or `deadline` passes; false when
    /// it passed.
    func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// The system clock's time `timeout` from now.
    static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int64(now.tv_nsec) + attoseconds / 1_000_000_000
        return timespec(tv_sec: now.tv_sec + Int(seconds + nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
