import GraphFuzzEngine

/// Per-case parameters: the real file system in a temporary folder (one case in ten) or the
/// simulated one, and how many writes of an instance trigger a cleanup (production's 100, or 3 so
/// that short cases reach it).
public struct CacheConfig: TraceCodable, Sendable, Equatable {
    public var realFileSystem: Bool
    public var cleanupInterval: Int

    public init(realFileSystem: Bool = false, cleanupInterval: Int = 100) {
        self.realFileSystem = realFileSystem
        self.cleanupInterval = cleanupInterval
    }

    public var trace: TraceStep {
        TraceStep("config", [.init("realFileSystem", .bool(realFileSystem)), .init("cleanupInterval", .int(cleanupInterval))])
    }

    public init(trace: TraceStep) throws(TraceError) {
        guard trace.name == "config" else { throw TraceError("expected 'config(…)', found '\(trace.name)'") }
        realFileSystem = try trace.bool("realFileSystem")
        cleanupInterval = try trace.int("cleanupInterval", in: 1...1000)
    }
}
