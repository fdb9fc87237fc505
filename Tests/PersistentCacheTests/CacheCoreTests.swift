import Foundation
import Testing
@testable import PersistentCache

struct CacheCoreTests {
    let a = TestKey(group: 0, variant: 0)
    let twin = TestKey(group: 0, variant: 1)

    @Test func setThenGetFromMemoryAndDisk() {
        let world = World()
        let cache = world.cache()
        cache.set(Data("one".utf8), for: a)
        #expect(cache.value(for: a) == Data("one".utf8))
        world.evictAll()
        #expect(cache.contains(a) == false)
        #expect(cache.value(for: a) == Data("one".utf8))
        #expect(cache.contains(a))
    }

    @Test func keysWithEqualDescriptionsDoNotShare() {
        let world = World()
        let cache = world.cache()
        cache.set(Data("one".utf8), for: a)
        #expect(cache.value(for: twin) == nil)
        #expect(cache.filePath(for: a) != cache.filePath(for: twin))
        world.evictAll()
        #expect(cache.value(for: twin) == nil)
        #expect(cache.value(for: a) == Data("one".utf8))
    }

    @Test func instancesSharingAnIdentifierShareMemory() {
        let world = World()
        let first = world.cache(), second = world.cache(), other = world.cache("other")
        first.set(Data("one".utf8), for: a)
        #expect(second.value(for: a) == Data("one".utf8))
        second.set(Data("two".utf8), for: a)
        #expect(first.value(for: a) == Data("two".utf8))
        #expect(other.value(for: a) == nil)
    }

    @Test func valuesExpireAfterAnHour() {
        let world = World()
        let cache = world.cache()
        cache.set(Data("one".utf8), for: a)
        world.clock.advance(by: 3599)
        #expect(cache.value(for: a) == Data("one".utf8))
        world.clock.advance(by: 1)
        #expect(cache.contains(a) == false)
        #expect(cache.value(for: a) == nil)
        #expect(world.disk.fileCount == 0)
    }

    @Test func aFlippedBitIsAMissAndTheFileIsDeleted() {
        let world = World()
        let cache = world.cache()
        cache.set(Data(repeating: 7, count: 100), for: a)
        #expect(world.faults.flipBit(in: cache.filePath(for: a), bit: 700))
        world.evictAll()
        #expect(cache.value(for: a) == nil)
        #expect(world.disk.fileExists(at: cache.filePath(for: a)) == false)
        #expect(world.logger.messages.contains { $0.contains("checksum") })
    }

    @Test func aFailedWriteKeepsMemoryAndDropsTheOlderDiskCopy() {
        for fault in [FileSystemFault.failedWrite, .fullDisk] {
            let world = World()
            let cache = world.cache()
            cache.set(Data("one".utf8), for: a)
            world.faults.arm(fault)
            cache.set(Data("two".utf8), for: a)
            #expect(cache.value(for: a) == Data("two".utf8))
            world.evictAll()
            #expect(cache.value(for: a) == nil)
        }
    }

    @Test func aTornWriteOrACrashBeforeRenameKeepsThePreviousValue() {
        for fault in [FileSystemFault.tornWrite, .crashBeforeRename] {
            let world = World()
            let cache = world.cache()
            cache.set(Data("one".utf8), for: a)
            world.faults.arm(fault, tornLength: 20)
            cache.set(Data("two".utf8), for: a)
            world.restart()
            let reopened = world.cache()
            #expect(reopened.value(for: a) == Data("one".utf8))
            #expect(world.disk.fileCount == 1)
        }
    }

    @Test func theSeedsInPlaceWriteLosesTheValueOnATornWrite() {
        let world = World()
        let strategy = CacheStrategy(.inPlaceWrite)
        let cache = world.cache(strategy: strategy)
        cache.set(Data("one".utf8), for: a)
        world.faults.arm(.tornWrite, tornLength: 20)
        cache.set(Data("two".utf8), for: a)
        world.restart()
        #expect(world.cache(strategy: strategy).value(for: a) == nil)
    }

    @Test func aMissingFolderIsRecreated() {
        let world = World()
        let cache = world.cache()
        world.faults.removeFolderExternally(cache.folder)
        cache.set(Data("one".utf8), for: a)
        world.evictAll()
        #expect(cache.value(for: a) == Data("one".utf8))
    }

    @Test func cleanupRemovesExpiredAndStrayFilesOnly() throws {
        let world = World()
        let cache = world.cache()
        cache.set(Data("old".utf8), for: a)
        world.clock.advance(by: 3000)
        cache.set(Data("new".utf8), for: twin)
        try world.disk.write(Data(), to: cache.folder + "/.stray.tmp", modified: world.clock.now())
        world.clock.advance(by: 600)
        cache.cleanUp()
        #expect(try world.disk.list(cache.folder).map(\.name) == [String(cache.filePath(for: twin).suffix(64))])
    }

    @Test func cleanupRunsEveryHundredWrites() {
        let world = World()
        let cache = world.cache()
        cache.set(Data("old".utf8), for: a)
        world.clock.advance(by: 4000)
        for index in 0..<98 { cache.set(Data([UInt8(index)]), for: twin) }
        #expect(world.disk.fileCount == 2)
        cache.set(Data("last".utf8), for: twin)
        #expect(world.disk.fileCount == 1)
    }

    @Test func nsCacheTierKeepsDistinctKeysApart() {
        let tier = NSCacheMemoryTier()
        let entry = MemoryEntry(data: Data("x".utf8), writtenAt: Date())
        tier.set(entry, for: AnyHashable(a))
        #expect(tier.entry(for: AnyHashable(a)) == entry)
        #expect(tier.entry(for: AnyHashable(twin)) == nil)
        #expect(tier.entry(for: AnyHashable(a.description)) == nil)
        tier.remove(AnyHashable(a))
        #expect(tier.entry(for: AnyHashable(a)) == nil)
    }
}
