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

/// One device's local state: project rows with their blobs, entity rows, and the change tag last
/// fetched for every record, as the sync layer reads them on every step. Each operation marks the
/// rows it changes; `save()` writes them into the device's GraphStore context and saves it, as an
/// app saves at the end of an operation. An app restart (`reopened()`) rebuilds the state from a
/// fresh context over the container's saved rows: unsaved changes are lost, saved ones kept.
struct DeviceStore: Sendable {
    let origin: UInt16
    private(set) var nextSerial: UInt32 = 1
    /// Project rows, each record once (a device holds a handful: found by a scan, cheaper than hashing).
    private(set) var projects: [LocalProject] = []
    private(set) var items: [LocalItem] = []
    private var itemIndex: [RecordID: Int] = [:]
    /// The change tag of the last fetched version of each record.
    private var known: [RecordID: Int] = [:]
    /// The device's container and context, and the rows changed since the last save (kept in the
    /// class, so that reading a device's rows copies one reference more, not four arrays).
    private let persistence: DevicePersistence

    init(origin: UInt16) {
        self.origin = origin
        persistence = DevicePersistence(origin: origin)
        persistence.serialUnsaved = true
    }

    mutating func newID() -> RecordID {
        defer {
            nextSerial += 1
            persistence.serialUnsaved = true
        }
        return RecordID(origin: origin, serial: nextSerial)
    }

    // MARK: Projects

    func projectSlot(_ id: RecordID) -> Int? {
        projects.withUnsafeBufferPointer { rows in
            for p in rows.indices where rows[p].id == id { return p }
            return nil
        }
    }

    mutating func insert(_ project: LocalProject) {
        persistence.unsavedProjects.append(projects.count)
        projects.append(project)
    }

    mutating func withProject<T>(at i: Int, _ body: (inout LocalProject) -> T) -> T {
        persistence.unsavedProjects.append(i)
        return body(&projects[i])
    }

    // MARK: Items

    func itemSlot(_ id: RecordID) -> Int? { itemIndex[id] }

    mutating func insert(_ item: LocalItem) {
        itemIndex[item.id] = items.count
        persistence.unsavedItems.append(items.count)
        items.append(item)
    }

    mutating func withItem<T>(at i: Int, _ body: (inout LocalItem) -> T) -> T {
        persistence.unsavedItems.append(i)
        return body(&items[i])
    }

    /// Item rows of one collection that the app can read, in the entity read order.
    func entityOrder(of project: RecordID, _ collection: ProjectCollection) -> [Int] {
        Self.entityOrder(items, of: project, collection) { $0 }
    }

    /// `entityOrder(of:_:)` over a device's item rows (callers pass `items` alone: no copy of the whole store), each
    /// row index passed through `transform`.
    static func entityOrder<T>(_ items: [LocalItem], of project: RecordID, _ collection: ProjectCollection,
                               _ transform: (Int) -> T) -> [T] {
        let ordered = collection.isOrdered
        var keyed: [(position: Double, id: RecordID, index: Int)] = []
        items.withUnsafeBufferPointer { rows in
            // Fields read in place: copying a row would retain its notes.
            for i in rows.indices where rows[i].state == .present && rows[i].owner == project && rows[i].collection == collection {
                keyed.append((ordered ? rows[i].position : 0, rows[i].id, i))
            }
        }
        if keyed.count > 1 { keyed.sort { ($0.position, $0.id) < ($1.position, $1.id) } }
        return keyed.map { transform($0.index) }
    }

    // MARK: Change tags

    func knownTag(_ id: RecordID) -> Int { known[id] ?? 0 }

    mutating func setKnownTag(_ id: RecordID, _ tag: Int) {
        known[id] = tag
        persistence.unsavedTags.append(id)
    }

    // MARK: Persistence

    /// Writes the changed rows into the device's context and saves it.
    func save() throws(SyncError) {
        let persistence = self.persistence
        guard persistence.hasUnsavedChanges else { return }
        // Slots in ascending order: a new row's model is created right after the rows before it.
        persistence.unsavedProjects.sort()
        var last = -1
        for p in persistence.unsavedProjects where p != last {
            persistence.writeProject(projects[p], slot: p)
            last = p
        }
        persistence.unsavedItems.sort()
        last = -1
        for i in persistence.unsavedItems where i != last {
            let item = items[i]
            persistence.writeItem(item, slot: i, parent: projectSlot(item.owner))
            last = i
        }
        for id in persistence.unsavedTags {
            persistence.writeTag(id, known[id] ?? 0, project: projectSlot(id), item: itemIndex[id])
        }
        if persistence.serialUnsaved { persistence.writeNextSerial(nextSerial) }
        persistence.unsavedProjects.removeAll(keepingCapacity: true)
        persistence.unsavedItems.removeAll(keepingCapacity: true)
        persistence.unsavedTags.removeAll(keepingCapacity: true)
        persistence.serialUnsaved = false
        try persistence.save()
    }

    /// The rows saved in the container.
    var savedRowCount: Int { persistence.savedRowCount }

    /// The store an app restart sees: a fresh context over the container's saved rows (changes
    /// not saved are lost).
    func reopened() throws(SyncError) -> DeviceStore {
        let (persistence, rows) = try self.persistence.reopen()
        var store = DeviceStore(origin: rows.origin, persistence: persistence)
        store.nextSerial = rows.nextSerial
        store.projects = rows.projects
        for item in rows.items {
            store.itemIndex[item.id] = store.items.count
            store.items.append(item)
        }
        for (id, tag) in rows.known { store.known[id] = tag }
        return store
    }

    private init(origin: UInt16, persistence: DevicePersistence) {
        self.origin = origin
        self.persistence = persistence
    }
}
