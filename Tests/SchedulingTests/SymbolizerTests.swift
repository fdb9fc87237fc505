@testable import GraphFuzzEngine
import ScheduleSamples
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("naming the code a job runs")
struct SymbolizerTests {
    @Test("demangled resumption points read as the function, its labels and the point")
    func readableNames() {
        func readable(_ demangled: String) -> String {
            let function = Symbolizer.readable(demangled)
            return "\(function.name) @\(function.resumePoint) [\(function.module)]"
        }
        #expect(readable("(1) suspend resume partial function for ScheduleSamples.Savings.moveToSavings(Swift.Int) async throws -> ()")
                == "Savings.moveToSavings(_:) @1 [ScheduleSamples]")
        #expect(readable("(1) suspend resume partial function for (extension in Swift):Swift.Clock.sleep(for: A.Duration, tolerance: Swift.Optional<A.Duration>) async throws -> ()")
                == "Clock.sleep(for:tolerance:) @1 [Swift]")
        #expect(readable("(2) await resume partial function for generic specialization <Swift.ContinuousClock> of static (extension in Swift):Swift.Task< where A == Swift.Never, B == Swift.Never>._sleep<A where A1: Swift.Clock>(until: A1.Instant, tolerance: Swift.Optional<A1.Duration>, clock: A1) async throws -> ()")
                == "Task._sleep(until:tolerance:clock:) @2 [Swift]")
        #expect(readable("(2) suspend resume partial function for closure #1 @Sendable () async -> Swift.Bool in closure #1 (Swift.Int, Swift.Int) -> GraphFuzzEngine.ScheduledBranch<Swift.Bool> in static ScheduleSamples.CancelledTransfer.branches(ScheduleSamples.Savings) -> Swift.Array<GraphFuzzEngine.ScheduledBranch<Swift.Bool>>")
                == "closure in CancelledTransfer.branches @2 [ScheduleSamples]")
        #expect(readable("ScheduleSamples.ThumbnailCache.thumbnail(Swift.Int) async -> Swift.String") == "ThumbnailCache.thumbnail(_:) @0 [ScheduleSamples]")
        #expect(readable("(5) await resume partial function for ScheduleSamples.ThumbnailCache.(download in _7F3A1C9D0B2E4A5F6C7D8E9F0A1B2C3D)(Swift.Int) async -> Swift.String")
                == "ThumbnailCache.download(_:) @5 [ScheduleSamples]")
    }

    #if os(Linux)
    @Test("the process's mappings read from /proc/self/maps text: addresses, and whether each is writable")
    func mappingsText() throws {
        let text = """
            55d0c4a2b000-55d0c4a2d000 r--p 00000000 fe:00 1234   /usr/bin/true
            7f11d953c000-7f11d954a000 rw-p 0015b000 fe:00 2279   /opt/lib.so
            not a mapping
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]
            7fff0000-7fff1000 rwxp 00000000 00:00 0
            """
        let mappings = LoadedImages.parseMappings(Array(text.utf8))
        #expect(mappings.map(\.low) == [0x55d0c4a2b000, 0x7f11d953c000, 0xffffffffff600000, 0x7fff0000])
        #expect(mappings.map(\.high) == [0x55d0c4a2d000, 0x7f11d954a000, 0xffffffffff601000, 0x7fff1000])
        #expect(mappings.map(\.writable) == [false, true, false, true])
        // This process's own: a local variable lies in a writable mapping, the C library's code in one that is not.
        let own = try #require(LoadedImages.mappings())
        var local = 0
        let stack = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
        let code = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc"))
        #expect(code != 0)
        #expect(own.first { stack >= $0.low && stack < $0.high }?.writable == true)
        #expect(own.first { code >= $0.low && code < $0.high }?.writable == false)
    }
    #endif

    @Test("a job's resume address names the function from the program's symbols (this debug build)")
    func namesFromTheBinary() throws {
        let found = try #require((UInt64(1)...100).lazy.map { LostUpdate.run(Draw(seed: $0)) }.first { $0.isLost })
        let names = Set(found.run.record.ran.compactMap { Symbolizer.function(at: $0.from)?.name })
        #expect(names.contains("ReentrantCounter.increment(_:)"), "\(names.sorted())")
    }
}
