#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Where the cache reads the time (write stamps, expiry, cleanup).
public protocol CacheClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system clock: production's default.
public struct SystemClock: CacheClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to (the harness advances it by minutes to hours).
public final class ManualClock: CacheClock, Sendable {
    private let current: Mutex<Date>

    /// Starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
