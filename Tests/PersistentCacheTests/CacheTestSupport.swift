import Foundation
@testable import PersistentCache

/// Two keys that print alike but are different keys.
struct TestKey: Hashable, CustomStringConvertible, Sendable {
    var group: Int
    var variant: Int
    var description: String { "key-\(group)" }
}

/// A simulated world: manual clock, manual memory tiers, a fault-injecting simulated file system.
struct World {
    let clock = ManualClock()
    let disk = SimulatedFileSystem()
    let faults: FaultInjectingFileSystem
    let logger = RecordingLogger(minimum: .info)
    let environment: CacheEnvironment

    init(strategy: CacheStrategy = .shipped) {
        faults = FaultInjectingFileSystem(base: disk)
        environment = CacheEnvironment(cachesDirectory: "/caches", fileSystem: faults, clock: clock, logger: logger,
                                       memoryTier: { ManualMemoryTier() })
    }

    func cache(_ identifier: String = "main", strategy: CacheStrategy = .shipped) -> CacheCore<TestKey, Data> {
        CacheCore(identifier: identifier, environment: environment, strategy: strategy)
    }

    func evictAll(_ identifier: String = "main") {
        (environment.sharedMemoryTier(for: identifier) as? ManualMemoryTier)?.evictAll()
    }

    /// A process restart: memory gone, non-durable data gone, the file system works again.
    func restart() {
        environment.dropMemoryTiers()
        disk.powerLoss()
        faults.recover()
    }
}
