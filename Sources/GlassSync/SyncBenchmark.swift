/// Bytes moved by one partial edit (one item's quantity changed) in a project of `items` glass items.
public struct PartialEditBytes: Equatable, Sendable {
    public var items: Int
    /// The current design (phase 0): the edited array travels as one blob.
    public var blobBytes: Int
    /// Dual-write (phase 2): the entity row and the rewritten blob both travel.
    public var dualWriteBytes: Int
    /// Phase 3: only the changed entity row travels.
    public var entityBytes: Int

    /// The fraction of the blob design's bytes that the entity design saves (0.9 is 90 %).
    public var reduction: Double { blobBytes == 0 ? 0 : 1 - Double(entityBytes) / Double(blobBytes) }
}

/// Measures the seed's claim that relationship entities cut sync data for partial edits by 80–90 %.
public enum SyncBenchmark {
    /// Bytes pushed by the editing device plus bytes fetched by the other device when one glass
    /// item's quantity changes in a `ProjectPlan` holding `items` glass items.
    public static func partialEditBytes(items: Int, granularity: ConflictGranularity = .record) throws(SyncError) -> PartialEditBytes {
        PartialEditBytes(
            items: items,
            blobBytes: try measure(items: items, phase: .blobsOnly, granularity),
            dualWriteBytes: try measure(items: items, phase: .entityReads, granularity),
            entityBytes: try measure(items: items, phase: .entitiesOnly, granularity))
    }

    static func measure(items: Int, phase: MigrationPhase, _ granularity: ConflictGranularity) throws(SyncError) -> Int {
        var world = SyncWorld(deviceCount: 2, granularity: granularity, initialProjects: [.plan])
        let plan = world.initialProjects[0]
        var ids: [RecordID] = []
        for n in 0..<items {
            ids.append(try world.addItem(on: 0, project: plan, .glassItems, code: n % 400))
        }
        try world.push(0)
        try world.fetch(1)
        while world.phase < phase { try world.advancePhase() }
        for device in 0..<2 { try world.push(device) }
        for device in 0..<2 { try world.fetch(device) }
        guard !ids.isEmpty else { return 0 }
        try world.setQuantity(on: 0, item: ids[ids.count / 2], 7)
        let pushed = try world.push(0)
        let fetched = try world.fetch(1)
        return pushed.bytes + fetched.bytes
    }
}
