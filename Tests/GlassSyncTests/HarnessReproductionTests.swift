import GlassSync
import Testing

/// The Swift reproduction the `sync` target prints for its `blob-storage` counterexample (seed 1),
/// pasted unchanged except for the strategy: on production code every `#expect` holds; with
/// `SyncStrategy(.blobsOnlyStorage)` the first one fails (A shows only its own item).
@Suite struct HarnessReproductionTests {
    @Test func blobStorageStoryPassesOnProduction() throws {
        var world = SyncWorld(deviceCount: 2, granularity: .record, strategy: .production)
        let v1 = world.initialProjects[0], v2 = world.initialProjects[1], v3 = world.initialProjects[2]
        _ = (v1, v2, v3)
        try world.rollOutNextPhase()
        let v4 = try world.addItem(on: 1, project: v1, .glassItems, code: 0)
        let v5 = try world.addItem(on: 0, project: v1, .glassItems, code: 0)
        try world.push(1)
        try world.fetch(0)
        // S4: the specification predicts A:v1.glassItems=[v5×1, v4×1] …
        // The two additions were concurrent: either order (they never tie at position 0).
        #expect(Dictionary(uniqueKeysWithValues: try world.read(on: 0, project: v1, .glassItems).map { ($0.id, $0.quantity) }) == [v5: 1, v4: 1])
        #expect(try world.read(on: 0, project: v1, .tags).map(\.id) == [])
        #expect(try world.read(on: 0, project: v2, .glassItems).map(\.id) == [])
        #expect(try world.read(on: 0, project: v3, .glassItems).map(\.id) == [])
        #expect(try world.readMirror(on: 0, project: v1, .glassItems) == world.read(on: 0, project: v1, .glassItems))
    }

    @Test func blobStorageStoryLosesTheAdditionOnTheMutant() throws {
        var world = SyncWorld(deviceCount: 2, granularity: .record, strategy: SyncStrategy(.blobsOnlyStorage))
        let v1 = world.initialProjects[0]
        try world.rollOutNextPhase()
        _ = try world.addItem(on: 1, project: v1, .glassItems, code: 0)
        let v5 = try world.addItem(on: 0, project: v1, .glassItems, code: 0)
        try world.push(1)
        try world.fetch(0)
        #expect(try world.read(on: 0, project: v1, .glassItems).map(\.id) == [v5])
    }
}
