#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// How bad a logged event is.
public enum CacheLogLevel: String, Sendable, Comparable {
    case debug, info, error

    public static func < (lhs: CacheLogLevel, rhs: CacheLogLevel) -> Bool {
        let order: [CacheLogLevel] = [.debug, .info, .error]
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }
}

/// The logging seam (Linux has no OSLog). Disk errors are logged here and never thrown to callers.
public protocol CacheLogger: Sendable {
    func log(_ level: CacheLogLevel, _ message: @autoclosure () -> String)
}

/// Drops every message: production's default when the app supplies no logger.
public struct DiscardingLogger: CacheLogger {
    public init() {}
    public func log(_ level: CacheLogLevel, _ message: @autoclosure () -> String) {}
}

/// Keeps messages at or above a level in memory, for tests and diagnostics.
public final class RecordingLogger: CacheLogger, Sendable {
    private let stored = Mutex<[(CacheLogLevel, String)]>([])
    private let minimum: CacheLogLevel
    private let capacity: Int

    /// Records messages at `minimum` or above, keeping the last `capacity`.
    public init(minimum: CacheLogLevel = .info, capacity: Int = 1000) {
        self.minimum = minimum
        self.capacity = capacity
    }

    public func log(_ level: CacheLogLevel, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        let text = message()
        stored.withLock { stored in
            if stored.count >= capacity { stored.removeFirst(stored.count - capacity + 1) }
            stored.append((level, text))
        }
    }

    /// The recorded messages, oldest first.
    public var messages: [String] { stored.withLock { $0.map { "\($0.0.rawValue): \($0.1)" } } }
}
