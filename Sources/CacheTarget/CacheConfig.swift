import GraphFuzzEngine

/// Per-case parameters: the real file system in a temporary folder (one case in ten) or the
/// simulated one, and how many writes of an instance trigger a cleanup (production's 100, or 3 so
/// that short cases reach it).
public struct CacheConfig: Sendable, Equatable {
    public var realFileSystem: Bool
    public var cleanupInterval: Int

    public init(realFileSystem: Bool = false, cleanupInterval: Int = 100) {
        self.realFileSystem = realFileSystem
        self.cleanupInterval = cleanupInterval
    }

    /// The configuration as its trace reads, for comments in exported tests.
    public var trace: TraceStep {
        TraceStep("config", [.init("realFileSystem", .bool(realFileSystem)), .init("cleanupInterval", .int(cleanupInterval))])
    }
}
