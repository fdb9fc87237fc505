import Synchronization

/// A lock for state a class keeps beside it, as `NSLock`'s `withLock` (which FoundationEssentials does not have):
/// for state a `Mutex` cannot hold, such as dictionaries keyed by `AnyHashable`, which is not `Sendable`.
final class Lock: Sendable {
    private let mutex = Mutex(())

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock { _ in try body() }
    }
}
