import GlassSync
import GraphStore
import Testing

/// Each device persists in a GraphStore container: the schema passes the CloudKit check, and an app
/// restart reads the saved rows back through a fresh context.
@Suite struct DeviceStoreTests {
    @Test func deviceSchemaPassesTheCloudKitCheck() throws {
        let schema = SyncWorld.deviceSchema
        #expect(schema.cloudKitViolations() == [])
        let names = schema.entities.map(\.name)
        for kind in ProjectKind.allCases {
            let project = try #require(schema.entityIndex(named: kind.rawValue).map { schema.entities[$0] })
            for collection in kind.collections {
                #expect(project.attributeIndex(named: collection.blobAttribute(on: kind)) != nil)
                #expect(names.contains(collection.entityName(on: kind)))
                let relationship = try #require(project.relationshipIndex(named: collection.rawValue).map { project.relationships[$0] })
                #expect(relationship.isToMany && relationship.deleteRule == .cascade && relationship.inverse != nil)
            }
        }
        for kind in ProjectKind.allCases {
            let join = try #require(schema.entityIndex(named: ProjectCollection.glassItems.entityName(on: kind)).map { schema.entities[$0] })
            for attribute in ["quantity", "notes", "position"] { #expect(join.attributeIndex(named: attribute) != nil) }
        }
        let tag = try #require(schema.entityIndex(named: "ProjectTag").map { schema.entities[$0] })
        #expect(tag.relationships.map(\.name) == ["log", "plan"])
    }

    @Test func restartReadsTheSavedRowsBack() throws {
        var world = SyncWorld(granularity: .field)
        var twin = SyncWorld(granularity: .field)
        let log = world.initialProjects[0], plan = world.initialProjects[1]
        func both(_ body: (inout SyncWorld) throws -> Void) rethrows {
            try body(&world)
            try body(&twin)
        }
        try both { _ = try $0.addItem(on: 0, project: log, .glassItems, code: 2) }
        try both { try $0.rollOutNextPhase() }
        try both { _ = try $0.addItem(on: 1, project: plan, .referenceUrls, code: 1) }
        try both { _ = try $0.addItem(on: 1, project: plan, .tags, code: 4) }
        let step = try world.createProject(on: 1, kind: .step)
        #expect(try twin.createProject(on: 1, kind: .step) == step)
        let sheet = try world.addItem(on: 1, project: step, .glassItems, code: 7)
        #expect(try twin.addItem(on: 1, project: step, .glassItems, code: 7) == sheet)
        try both { try $0.push(1) }
        // Out of order: the item before its project, which waits for it (R31).
        try both { try $0.fetch(0, .records([sheet])) }
        #expect(world.projects(on: 0).contains(step) == false)
        try both { try $0.rollOutNextPhase() }

        let rowsBefore = try world.savedRowCount(of: 0)
        try world.restart(0)
        try world.restart(1)
        #expect(try world.savedRowCount(of: 0) == rowsBefore)
        for device in 0..<2 {
            #expect(world.projects(on: device) == twin.projects(on: device))
            #expect(try world.pendingChanges(for: device) == twin.pendingChanges(for: device))
            for project in world.projects(on: device) {
                for collection in try world.kind(of: project, on: device).collections {
                    #expect(try world.read(on: device, project: project, collection) == twin.read(on: device, project: project, collection))
                }
            }
        }
        // The restarted devices carry on exactly as the twin that never restarted.
        let id = try world.addItem(on: 0, project: log, .glassItems, code: 5)
        #expect(try twin.addItem(on: 0, project: log, .glassItems, code: 5) == id)
        #expect(try world.push(0) == twin.push(0))
        #expect(try world.fetch(0) == twin.fetch(0))
        #expect(try world.fetch(1) == twin.fetch(1))
        #expect(try world.read(on: 1, project: log, .glassItems) == twin.read(on: 1, project: log, .glassItems))
        #expect(try world.read(on: 0, project: step, .glassItems).map(\.id) == [sheet])
        #expect(try world.savedRowCount(of: 0) > rowsBefore)
    }
}
