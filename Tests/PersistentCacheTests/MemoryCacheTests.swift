import Foundation
import Testing
@testable import PersistentCache

struct MemoryCacheTests {
    @Test func concurrentSetsAndGetsOfOneKeyEndOnAValueSet() async {
        let world = World()
        let cache = MemoryCache<TestKey, Data>(identifier: "main", environment: world.environment)
        let key = TestKey(group: 1, variant: 0)
        let values = (0..<50).map { Data([UInt8($0), 1, 2]) }
        let seen = await withTaskGroup(of: Data?.self) { group in
            for value in values {
                group.addTask { await cache.set(value, for: key); return nil }
                group.addTask { await cache.value(for: key) }
            }
            var seen: [Data] = []
            for await result in group { if let result { seen.append(result) } }
            return seen
        }
        #expect(seen.allSatisfy { values.contains($0) })
        let final = await cache.value(for: key)
        #expect(final.map { values.contains($0) } == true)
        #expect(await cache.contains(key))
    }

    @Test func realFileSystemRoundTripLeavesNothingBehind() async throws {
        let root = NSTemporaryDirectory() + "persistent-cache-test-" + UUID().uuidString
        let environment = CacheEnvironment(cachesDirectory: root, memoryTier: { NSCacheMemoryTier() })
        let key = TestKey(group: 2, variant: 1)
        let first = MemoryCache<TestKey, Data>(identifier: "real", environment: environment)
        await first.set(Data("persisted".utf8), for: key)
        let reopened = MemoryCache<TestKey, Data>(identifier: "real", environment: CacheEnvironment(cachesDirectory: root))
        #expect(await reopened.contains(key) == false)
        #expect(await reopened.value(for: key) == Data("persisted".utf8))
        try FileManager.default.removeItem(atPath: root)
        #expect(FileManager.default.fileExists(atPath: root) == false)
    }
}
