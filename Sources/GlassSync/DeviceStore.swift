/// A project row in a device's local store: the model and its transformable arrays by slot.
struct LocalProject: Sendable {
    var id: RecordID
    var kind: ProjectKind
    /// Decoded transformable arrays by slot; empty once phase 3 removed the attributes.
    var blobs: [[BlobEntry]]
    /// Unpushed changes (`FieldMask.identity` for a new project, `FieldMask.blob(slot)`).
    var dirty: UInt8 = 0
}

/// Where an item row stands on a device.
enum ItemState: UInt8, Sendable {
    case present = 0
    /// Deleted here, the deletion not yet pushed: hidden from reads.
    case deletedPending = 1
    /// Deleted (here and pushed, or by a fetched deletion).
    case gone = 2
    /// Fetched before its parent project: kept until the parent arrives (R31).
    case waiting = 3
}

/// A relationship-entity row in a device's local store.
struct LocalItem: Sendable {
    var id: RecordID
    var owner: RecordID
    var ownerKind: ProjectKind
    var collection: ProjectCollection
    var code: Int
    var quantity: Int
    var position: Double
    var notes: String
    var dirty: UInt8
    var state: ItemState
}

/// One device's local persistence: project rows with their blobs, entity rows, and the change
/// tag last fetched for every record. This is the small internal store GlassSync uses until the
/// GraphStore module can host the models; it round-trips through a byte image on app restart.
struct DeviceStore: Sendable {
    let origin: UInt16
    var nextSerial: UInt32 = 1
    private(set) var projects: [LocalProject] = []
    private var projectIndex: [RecordID: Int] = [:]
    private(set) var items: [LocalItem] = []
    private var itemIndex: [RecordID: Int] = [:]
    /// The change tag of the last fetched version of each record.
    private var known: [RecordID: Int] = [:]

    init(origin: UInt16) { self.origin = origin }

    mutating func newID() -> RecordID {
        defer { nextSerial += 1 }
        return RecordID(origin: origin, serial: nextSerial)
    }

    // MARK: Projects

    func projectSlot(_ id: RecordID) -> Int? { projectIndex[id] }

    mutating func insert(_ project: LocalProject) {
        projectIndex[project.id] = projects.count
        projects.append(project)
    }

    mutating func withProject<T>(at i: Int, _ body: (inout LocalProject) -> T) -> T { body(&projects[i]) }

    // MARK: Items

    func itemSlot(_ id: RecordID) -> Int? { itemIndex[id] }

    mutating func insert(_ item: LocalItem) {
        itemIndex[item.id] = items.count
        items.append(item)
    }

    mutating func withItem<T>(at i: Int, _ body: (inout LocalItem) -> T) -> T { body(&items[i]) }

    /// Item rows of one collection that the app can read, in the entity read order.
    func entityOrder(of project: RecordID, _ collection: ProjectCollection) -> [Int] {
        let items = self.items, ordered = collection.isOrdered
        var keyed: [(position: Double, id: RecordID, index: Int)] = []
        for i in items.indices {
            let item = items[i]
            if item.state == .present && item.owner == project && item.collection == collection {
                keyed.append((ordered ? item.position : 0, item.id, i))
            }
        }
        keyed.sort { ($0.position, $0.id) < ($1.position, $1.id) }
        return keyed.map(\.index)
    }

    // MARK: Change tags

    func knownTag(_ id: RecordID) -> Int { known[id] ?? 0 }
    mutating func setKnownTag(_ id: RecordID, _ tag: Int) { known[id] = tag }

    // MARK: Restart

    /// The persisted form of the store (what survives an app restart).
    func image() -> [UInt8] {
        var w = ByteWriter(capacity: 256)
        w.varint(UInt64(origin))
        w.varint(UInt64(nextSerial))
        w.varint(UInt64(projects.count))
        for project in projects {
            w.id(project.id)
            w.varint(UInt64(ProjectKind.allCases.firstIndex(of: project.kind)!))
            w.varint(UInt64(project.dirty))
            w.varint(UInt64(project.blobs.count))
            for (slot, entries) in project.blobs.enumerated() {
                w.data(BlobCodec.encode(entries, project.kind.collections[slot]))
            }
        }
        w.varint(UInt64(items.count))
        for item in items {
            w.id(item.id)
            w.id(item.owner)
            w.varint(UInt64(ProjectKind.allCases.firstIndex(of: item.ownerKind)!))
            w.varint(UInt64(ProjectCollection.allCases.firstIndex(of: item.collection)!))
            w.int(item.code)
            w.int(item.quantity)
            w.double(item.position)
            w.string(item.notes)
            w.varint(UInt64(item.dirty))
            w.varint(UInt64(item.state.rawValue))
        }
        let tags = known.sorted { $0.key < $1.key }
        w.varint(UInt64(tags.count))
        for (id, tag) in tags {
            w.id(id)
            w.int(tag)
        }
        return w.bytes
    }

    /// Rebuilds a store from `image()`.
    init(image: [UInt8]) throws(SyncError) {
        var r = ByteReader(image)
        origin = UInt16(truncatingIfNeeded: try r.varint())
        nextSerial = UInt32(truncatingIfNeeded: try r.varint())
        for _ in 0..<(try r.count()) {
            let id = try r.id()
            let kind = try Self.pick(ProjectKind.allCases, try r.varint(), &r)
            let dirty = UInt8(truncatingIfNeeded: try r.varint())
            var blobs: [[BlobEntry]] = []
            let slots = try r.count()
            guard slots <= kind.collections.count else { throw SyncError.corruptImage(offset: r.offset, "\(slots) blob slots on \(kind.rawValue)") }
            for slot in 0..<slots { blobs.append(try BlobCodec.decode(try r.data(), kind.collections[slot])) }
            insert(LocalProject(id: id, kind: kind, blobs: blobs, dirty: dirty))
        }
        for _ in 0..<(try r.count()) {
            let id = try r.id()
            let owner = try r.id()
            let kind = try Self.pick(ProjectKind.allCases, try r.varint(), &r)
            let collection = try Self.pick(ProjectCollection.allCases, try r.varint(), &r)
            let code = try r.int(), quantity = try r.int(), position = try r.double(), notes = try r.string()
            let dirty = UInt8(truncatingIfNeeded: try r.varint())
            guard let state = ItemState(rawValue: UInt8(truncatingIfNeeded: try r.varint())) else {
                throw SyncError.corruptImage(offset: r.offset, "item state")
            }
            insert(LocalItem(id: id, owner: owner, ownerKind: kind, collection: collection, code: code, quantity: quantity,
                             position: position, notes: notes, dirty: dirty, state: state))
        }
        for _ in 0..<(try r.count()) {
            let id = try r.id()
            known[id] = try r.int()
        }
        guard r.isAtEnd else { throw SyncError.corruptImage(offset: r.offset, "trailing bytes") }
    }

    private static func pick<T>(_ all: [T], _ raw: UInt64, _ r: inout ByteReader) throws(SyncError) -> T {
        guard raw < UInt64(all.count) else { throw SyncError.corruptImage(offset: r.offset, "enumeration value \(raw)") }
        return all[Int(raw)]
    }
}
