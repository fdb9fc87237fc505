import GlassSync
import Testing

@Suite struct SyncBenchmarkTests {
    @Test(arguments: [5, 50, 500])
    func entitiesTransferFewerBytesForAPartialEdit(items: Int) throws {
        for granularity in ConflictGranularity.allCases {
            let bytes = try SyncBenchmark.partialEditBytes(items: items, granularity: granularity)
            #expect(bytes.entityBytes < bytes.blobBytes)
            #expect(bytes.dualWriteBytes > bytes.blobBytes, "dual-write sends the blob and the row")
            #expect(bytes.reduction > 0)
        }
    }

    @Test func theReductionGrowsWithTheProject() throws {
        let sizes = try [5, 50, 500].map { try SyncBenchmark.partialEditBytes(items: $0) }
        #expect(sizes[0].reduction < sizes[1].reduction)
        #expect(sizes[1].reduction < sizes[2].reduction)
        let rows = sizes.map(\.entityBytes)
        #expect(rows.max()! - rows.min()! <= 16, "one row whatever the project size (identifiers grow a few bytes)")
        #expect(sizes[2].blobBytes > 60 * sizes[0].blobBytes / 2, "the blob grows with the project")
    }
}
