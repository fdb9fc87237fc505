import GlassSync
import SyncSpec

/// The production side of one case: the sync world and the map between refs and record identities.
public struct SyncSystem {
    public var world: SyncWorld
    /// Record identity by ref index.
    var ids: [RecordID]
    /// Ref index by record identity: `refsByOrigin[origin][serial]` (-1 where unbound).
    var refsByOrigin: [[Int32]] = []
    /// The project and array of each item, by ref index (nil for projects).
    var owners: [(project: Int, collection: SpecCollection)?] = []

    init(world: SyncWorld) {
        self.world = world
        ids = world.initialProjects
        for (i, id) in ids.enumerated() { setRef(id, Int32(i)) }
    }

    mutating func bind(_ ref: Int, _ id: RecordID) {
        while ids.count <= ref { ids.append(id) }
        while owners.count <= ref { owners.append(nil) }
        ids[ref] = id
        setRef(id, Int32(ref))
    }

    private mutating func setRef(_ id: RecordID, _ ref: Int32) {
        let origin = Int(id.origin), serial = Int(id.serial)
        while refsByOrigin.count <= origin { refsByOrigin.append([]) }
        while refsByOrigin[origin].count <= serial { refsByOrigin[origin].append(-1) }
        refsByOrigin[origin][serial] = ref
    }

    /// The ref index of a record identity, or -1.
    func ref(_ id: RecordID) -> Int32 {
        let origin = Int(id.origin), serial = Int(id.serial)
        guard origin < refsByOrigin.count, serial < refsByOrigin[origin].count else { return -1 }
        return refsByOrigin[origin][serial]
    }

    static func collection(_ c: SpecCollection) -> ProjectCollection {
        switch c {
        case .glassItems: return .glassItems
        case .tags: return .tags
        case .techniques: return .techniques
        case .referenceUrls: return .referenceUrls
        }
    }

    static func specCollection(_ c: ProjectCollection) -> SpecCollection {
        switch c {
        case .glassItems: return .glassItems
        case .tags: return .tags
        case .techniques: return .techniques
        case .referenceUrls: return .referenceUrls
        }
    }

    static func kind(_ k: SpecProjectKind) -> ProjectKind {
        switch k {
        case .log: return .log
        case .plan: return .plan
        case .step: return .step
        }
    }

    private func convert(_ device: Int, _ project: Int32, _ collection: SpecCollection, _ items: [ItemRead]) -> SpecCollectionRead {
        SpecCollectionRead(device: Int8(device), project: project, collection: collection,
                           items: items.map { SpecItemRead(item: ref($0.id), quantity: Int32($0.quantity), code: Int32($0.code)) })
    }

    /// One array as the app reads it, and its mirror during dual-write.
    func read(_ device: Int, _ project: Int, _ collection: SpecCollection,
              into reads: inout [SpecCollectionRead], _ mirrors: inout [SpecCollectionRead]?) throws {
        let id = ids[project]
        let c = Self.collection(collection)
        reads.append(convert(device, Int32(project), collection, try world.read(on: device, project: id, c)))
        if let mirror = try world.readMirror(on: device, project: id, c) {
            if mirrors == nil { mirrors = [] }
            mirrors!.append(convert(device, Int32(project), collection, mirror))
        }
    }

    /// Every array of every project on a device, projects in ref order.
    func readAll(_ device: Int, into reads: inout [SpecCollectionRead], _ mirrors: inout [SpecCollectionRead]?) throws {
        let projects = world.projects(on: device).map { (ref: ref($0), id: $0) }.sorted { $0.ref < $1.ref }
        reads.reserveCapacity(reads.count + 3 * projects.count)
        for project in projects {
            let kind = try world.kind(of: project.id, on: device)
            for c in kind.collections {
                try read(device, Int(project.ref), Self.specCollection(c), into: &reads, &mirrors)
            }
        }
    }
}
