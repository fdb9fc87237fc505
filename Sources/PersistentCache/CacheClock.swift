import Foundation

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
public final class ManualClock: CacheClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = start }

    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
