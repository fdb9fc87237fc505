package import FaultPoints
import GraphStore

/// What one push or fetch moved over the wire.
public struct TransferReport: Equatable, Sendable {
    /// Records sent or received.
    public var records: Int = 0
    /// Their encoded size on the wire.
    public var bytes: Int = 0

    public init(records: Int = 0, bytes: Int = 0) {
        self.records = records
        self.bytes = bytes
    }
}

/// Running totals of a device's transfers.
public struct TransferTotals: Equatable, Sendable {
    /// Everything the device pushed.
    public var pushed = TransferReport()
    /// Everything the device fetched.
    public var fetched = TransferReport()
}

/// Which records a fetch delivers.
public enum Delivery: Sendable, Equatable {
    /// Every pending change, in the server's change order.
    case all
    /// These records, in this order (out of order and partial, as CloudKit may); a record
    /// without a pending change for the device is skipped.
    case records([RecordID])
}

/// A CloudKit-style sync simulation of the glass-project models: several devices, each with its
/// own local store, and a server holding records with change tags.
///
/// Devices edit locally; `push` sends a device's unpushed records (last writer wins per record
/// or per field, R30; a save of a record deleted on the server is refused and the deletion is
/// applied locally); `fetch` delivers changed records, possibly out of order and partially (R31):
/// an entity row whose project has not arrived waits for it. The migration phases move the
/// arrays from transformable blobs to relationship entities (seed 001).
public struct SyncWorld: Sendable {
    /// How last-writer-wins resolves concurrent saves of one record (R30).
    public let granularity: ConflictGranularity
    /// The faults (production: `.production`, none; a mutant selects one).
    package let strategy: SyncStrategy
    /// The migration phase of the app on every device.
    public internal(set) var phase: MigrationPhase = .blobsOnly
    /// Projects present on the server and on every device at the start.
    public let initialProjects: [RecordID]
    /// Transfer totals by device.
    public internal(set) var transfers: [TransferTotals]
    var server = CloudServer()
    var devices: [DeviceStore]

    /// A world of `deviceCount` devices that all hold the projects of `initialProjects`, synced.
    public init(deviceCount: Int = 2, granularity: ConflictGranularity = .record,
                initialProjects kinds: [ProjectKind] = ProjectKind.allCases) {
        self.init(deviceCount: deviceCount, granularity: granularity, strategy: .production, initialProjects: kinds)
    }

    /// With faults (a mutant): for this package's targets and tests only.
    package init(deviceCount: Int = 2, granularity: ConflictGranularity = .record, strategy: SyncStrategy,
                 initialProjects kinds: [ProjectKind] = ProjectKind.allCases) {
        self.granularity = granularity
        self.strategy = strategy
        devices = (0..<deviceCount).map { DeviceStore(origin: UInt16($0 + 1)) }
        transfers = Array(repeating: TransferTotals(), count: deviceCount)
        var ids: [RecordID] = []
        for (n, kind) in kinds.enumerated() {
            let id = RecordID(origin: 0, serial: UInt32(n + 1))
            ids.append(id)
            let empty = kind.collections.map { BlobCodec.encode([], $0) }
            _ = server.save(CloudRecord(id: id, type: .project(kind), tag: 0, blobs: empty),
                            fields: FieldMask.allProjectFields, granularity: granularity)
            let tag = server.record(id)!.tag
            for d in devices.indices {
                devices[d].insert(LocalProject(id: id, kind: kind, blobs: kind.collections.map { _ in [] }))
                devices[d].setKnownTag(id, tag)
            }
        }
        initialProjects = ids
        for d in devices.indices {
            do {
                try devices[d].save()
            } catch {
                preconditionFailure("the initial rows of device \(d) do not save: \(error)")
            }
        }
    }

    /// The number of devices.
    public var deviceCount: Int { devices.count }

    // MARK: Effective design

    /// Whether entities exist (the entity design, from phase 1).
    var usesEntities: Bool { !strategy.contains(.blobsOnlyStorage) && phase >= .dualWrite }
    /// Whether writes go to the blobs.
    var writesBlobs: Bool { strategy.contains(.blobsOnlyStorage) || phase.writesBlobs }
    /// Whether the app reads the entities.
    var readsEntities: Bool { !strategy.contains(.blobsOnlyStorage) && phase.readsEntities }

    func check(_ device: Int) throws(SyncError) {
        guard devices.indices.contains(device) else { throw SyncError.noSuchDevice(device) }
    }

    func projectSlot(_ device: Int, _ id: RecordID) throws(SyncError) -> Int {
        try check(device)
        guard let p = devices[device].projectSlot(id) else { throw SyncError.unknownProject(id, device: device) }
        return p
    }

    // MARK: Introspection

    /// The projects a device holds, by identity.
    public func projects(on device: Int) -> [RecordID] {
        guard devices.indices.contains(device) else { return [] }
        return devices[device].projects.map(\.id).sorted()
    }

    /// The model of a project on a device.
    public func kind(of project: RecordID, on device: Int) throws(SyncError) -> ProjectKind {
        devices[device].projects[try projectSlot(device, project)].kind
    }

    /// Records changed on the server since the device last fetched them, in change order.
    public func pendingChanges(for device: Int) throws(SyncError) -> [RecordID] {
        try check(device)
        let store = devices[device]
        return server.pending { store.knownTag($0) }.map { server.recordAt($0).id }
    }

    /// The rows saved in a device's GraphStore container.
    public func savedRowCount(of device: Int) throws(SyncError) -> Int {
        try check(device)
        return devices[device].savedRowCount
    }

    /// Restarts the app on a device: a fresh context over the container's saved rows replaces the
    /// device's state (every operation saves when it ends, so nothing the app read is lost).
    public mutating func restart(_ device: Int) throws(SyncError) {
        try check(device)
        devices[device] = try devices[device].reopened()
    }
}

extension SyncWorld {
    /// The schema of every device's GraphStore container: the project models with their
    /// transformable array attributes, the relationship entities with inverses and delete rules,
    /// and the sync layer's bookkeeping entities. It passes the CloudKit check (R23, R24).
    public static var deviceSchema: Schema { DeviceEntity.deviceSchema }
}

extension Fault<SyncWorld> {
    /// Mutant `blob-storage`: the seed's current design, arrays stay transformable blobs in every phase (phase
    /// changes do nothing); shipped: relationship entities, migrated in three phases.
    package static var blobsOnlyStorage: Self { Self() }
}
