import SyncSpec
import Testing

/// The sync specification as pure values: each rule's two-device story, stepped by hand.
@Suite struct SyncTargetSpecTests {
    let A = 0, B = 1
    let log = 0, plan = 1

    private func ids(_ model: SyncSpecModel, _ device: Int, _ project: Int, _ collection: SpecCollection) -> [Int32] {
        model.read(device, project, collection).items.map(\.item)
    }

    @Test func blobsLoseTheConcurrentAdditionS8() {
        var model = SyncSpecModel(granularity: .record)
        let x = model.addItem(A, project: log, .glassItems, code: 0)
        model.push(A)
        let y = model.addItem(B, project: log, .glassItems, code: 1)
        model.push(B)
        model.fetch(A, deliver: nil)
        #expect(ids(model, A, log, .glassItems) == [Int32(y)])
        #expect(!ids(model, A, log, .glassItems).contains(Int32(x)))
    }

    @Test(arguments: SpecGranularity.allCases)
    func entitiesKeepBothAdditionsS4(_ granularity: SpecGranularity) {
        var model = SyncSpecModel(granularity: granularity)
        model.rollOutNextPhase()
        let x = model.addItem(A, project: log, .glassItems, code: 0)
        model.push(A)
        let y = model.addItem(B, project: log, .glassItems, code: 1)
        model.push(B)
        model.fetch(A, deliver: nil)
        model.fetch(B, deliver: nil)
        #expect(ids(model, A, log, .glassItems) == [Int32(x), Int32(y)])
        #expect(ids(model, B, log, .glassItems) == ids(model, A, log, .glassItems))
    }

    @Test(arguments: SpecGranularity.allCases)
    func deletionWinsOverConcurrentEditS5(_ granularity: SpecGranularity) {
        var model = SyncSpecModel(granularity: granularity)
        model.rollOutNextPhase()
        let x = model.addItem(A, project: log, .glassItems, code: 0)
        model.push(A)
        model.fetch(B, deliver: nil)
        model.setQuantity(B, item: x, 5)
        model.removeItem(A, item: x)
        model.push(A)
        model.push(B)
        model.fetch(A, deliver: nil)
        #expect(ids(model, A, log, .glassItems).isEmpty)
        #expect(ids(model, B, log, .glassItems).isEmpty)
    }

    @Test func lastWriterWinsPerRecordOrPerFieldS6() {
        for granularity in SpecGranularity.allCases {
            var model = SyncSpecModel(granularity: granularity)
            model.rollOutNextPhase()
            let x = model.addItem(A, project: plan, .glassItems, code: 0)
            _ = model.addItem(A, project: plan, .glassItems, code: 1)
            model.push(A)
            model.fetch(B, deliver: nil)
            model.setQuantity(A, item: x, 4)
            model.moveItem(B, item: x, to: 1)
            model.push(A)
            model.push(B)
            model.fetch(A, deliver: nil)
            let read = model.read(A, plan, .glassItems).items
            #expect(read.last?.item == Int32(x), "B's move (the last push) survives")
            #expect(read.last?.quantity == (granularity == .field ? 4 : 1), "A's quantity survives only per field")
        }
    }

    @Test func orphanWaitsForItsProjectS7() {
        var model = SyncSpecModel(granularity: .record)
        model.rollOutNextPhase()
        let project = model.createProject(B, kind: .step)
        let item = model.addItem(B, project: project, .glassItems, code: 2)
        model.push(B)
        model.fetch(A, deliver: [item])
        #expect(!model.isPresent(item, on: A), "the item waits for its project")
        #expect(!model.projects(on: A).contains(project))
        model.fetch(A, deliver: [project])
        #expect(ids(model, A, project, .glassItems) == [Int32(item)])
    }

    @Test func migrationKeepsOrderAndRollbackLosesNothingS2S3() {
        var model = SyncSpecModel(granularity: .field)
        let x = model.addItem(A, project: plan, .referenceUrls, code: 1)
        let y = model.addItem(A, project: plan, .referenceUrls, code: 0)
        model.moveItem(A, item: y, to: 0)
        let before = ids(model, A, plan, .referenceUrls)
        #expect(before == [Int32(y), Int32(x)])
        model.rollOutNextPhase()
        #expect(ids(model, A, plan, .referenceUrls) == before)
        #expect(ids(model, B, plan, .referenceUrls) == before, "phase 1 is rolled out to synced devices")
        model.rollOutNextPhase()
        model.setQuantity(A, item: x, 1)
        model.rollbackReads()
        #expect(model.phase == 1)
        #expect(ids(model, A, plan, .referenceUrls) == before)
    }

    /// Order without positions: concurrent additions leave their order open, and the read admits
    /// either order; a move decides it, on the moving device at once (S9) and on the other after a sync (S4).
    @Test(arguments: SpecGranularity.allCases)
    func concurrentAdditionsLeaveTheirOrderOpenUntilAMoveDecidesItS4S9(_ granularity: SpecGranularity) {
        var model = SyncSpecModel(granularity: granularity)
        model.rollOutNextPhase()
        let first = model.addItem(A, project: log, .glassItems, code: 0)
        model.settle()
        let x = model.addItem(A, project: log, .glassItems, code: 1)
        let y = model.addItem(B, project: log, .glassItems, code: 2)
        model.settle()
        let merged = model.read(A, log, .glassItems)
        // Both come after `first`, which both devices held; nothing orders x and y.
        #expect(merged.precedences?.count == 2)
        var swapped = merged
        swapped.items = [merged.items[0], merged.items[2], merged.items[1]]
        #expect(merged.admits(swapped))
        var wrong = merged
        wrong.items = [merged.items[1], merged.items[0], merged.items[2]]
        #expect(!merged.admits(wrong))
        model.moveItem(B, item: x, to: 2)
        #expect(model.read(B, log, .glassItems).precedences == nil)
        #expect(ids(model, B, log, .glassItems) == [first, y, x].map(Int32.init))
        model.push(B)
        model.fetch(A, deliver: nil)
        #expect(model.read(A, log, .glassItems).precedences == nil)
        #expect(ids(model, A, log, .glassItems) == [first, y, x].map(Int32.init))
    }
}
