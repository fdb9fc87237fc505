import GraphStore

/// Owns a device's container and breaks its model–context reference cycles when the last
/// `DevicePersistence` over it goes away.
final class ContainerOwner {
    let container = ModelContainer(schema: DeviceEntity.deviceSchema)
    deinit { container.tearDown() }
}

/// A device's local persistence: the GraphStore container that holds its saved rows and the
/// context the app works in, with the model of each project row, item row and record change tag.
///
/// `DeviceStore` keeps the rows the sync layer reads on every step and writes the rows one
/// operation changed into this context, then saves (as an app saves at the end of an operation).
/// An app restart opens a fresh context over the same container and reads the saved rows back.
///
/// The class is not shared across threads: a `SyncWorld` and its devices belong to one harness case.
final class DevicePersistence: @unchecked Sendable {
    let owner: ContainerOwner
    let context: ModelContext
    /// The model of each project row, by the row's slot in `DeviceStore.projects`.
    private(set) var projectModels: [PersistentModel] = []
    /// The model of each item row, by the row's slot in `DeviceStore.items`.
    private(set) var itemModels: [PersistentModel] = []
    /// The change-tag row of each record the device fetched.
    private var tagModels: [RecordID: PersistentModel] = [:]
    /// The device's running record number.
    private let state: PersistentModel
    /// The arrays last written to each project row's blob attributes (by slot).
    private var writtenBlobs: [[[BlobEntry]]] = []
    /// Rows changed since the last save, by slot (a slot may appear twice; writes are idempotent).
    var unsavedProjects: [Int] = []
    var unsavedItems: [Int] = []
    var unsavedTags: [RecordID] = []
    var serialUnsaved = false

    /// Whether rows changed since the last save.
    var hasUnsavedChanges: Bool {
        !unsavedProjects.isEmpty || !unsavedItems.isEmpty || !unsavedTags.isEmpty || serialUnsaved
    }

    /// A new, empty container for device `origin`.
    init(origin: UInt16) {
        owner = ContainerOwner()
        context = ModelContext(owner.container)
        state = DeviceEntity.deviceState.make()
        state.setValue(.int(Int(origin)), at: 0)
        context.insert(state)
    }

    /// A fresh context over the saved rows of `previous`'s container (an app restart).
    private init(reopening previous: DevicePersistence, state: PersistentModel, context: ModelContext) {
        owner = previous.owner
        self.context = context
        self.state = state
    }

    // MARK: Writing

    func writeProject(_ project: LocalProject, slot p: Int) {
        let model: PersistentModel
        if p < projectModels.count {
            model = projectModels[p]
            if writtenBlobs[p] == project.blobs {
                // The arrays are unchanged (usually the same storage): only the change mask can be new.
                model.setValue(.int(Int(project.dirty)), at: ProjectColumn.dirty)
                return
            }
        } else {
            model = DeviceEntity.project(project.kind).make()
            model.setValue(.int(Int(truncatingIfNeeded: project.id.sortKey)), at: ProjectColumn.record)
            model.setValue(.int(p), at: ProjectColumn.order)
            context.insert(model)
            projectModels.append(model)
            writtenBlobs.append([])
        }
        let written = writtenBlobs[p]
        writtenBlobs[p] = project.blobs
        model.setValue(.int(Int(project.dirty)), at: ProjectColumn.dirty)
        for (slot, collection) in project.kind.collections.enumerated() {
            // An array written before and unchanged holds its encoding already: an edit changes one array.
            if slot < written.count, slot < project.blobs.count, written[slot] == project.blobs[slot] { continue }
            let value: AttributeValue = slot < project.blobs.count
                ? .string(BlobText.string(BlobCodec.encode(project.blobs[slot], collection))) : .null
            model.setValue(value, at: ProjectColumn.firstBlob + slot)
        }
    }

    func writeItem(_ item: LocalItem, slot i: Int, parent: Int?) {
        let model: PersistentModel
        let c = item.collection
        if i < itemModels.count {
            model = itemModels[i]
        } else {
            model = DeviceEntity.item(item.ownerKind, c).make()
            model.setValue(.int(Int(truncatingIfNeeded: item.id.sortKey)), at: ItemColumn.record)
            model.setValue(.int(i), at: ItemColumn.order)
            model.setValue(.int(Int(truncatingIfNeeded: item.owner.sortKey)), at: ItemColumn.owner)
            model.setValue(.int(ProjectKind.allCases.firstIndex(of: item.ownerKind)!), at: ItemColumn.ownerKind)
            // The catalogue code and the notes never change after the row is made.
            model.setValue(.int(item.code), at: ItemColumn.code)
            if let n = ItemColumn.notes(c) { model.setValue(.string(item.notes), at: n) }
            context.insert(model)
            itemModels.append(model)
        }
        model.setValue(.int(Int(item.dirty)), at: ItemColumn.dirty)
        model.setValue(.int(Int(item.state.rawValue)), at: ItemColumn.state)
        if let q = ItemColumn.quantity(c) { model.setValue(.int(item.quantity), at: q) }
        if let position = ItemColumn.position(c) {
            model.setValue(.int(Int(bitPattern: UInt(item.position.bitPattern))), at: position)
        }
        // The to-one relationship to the project, once the project row exists here (R31: an item
        // fetched before its project waits unlinked).
        if let parent, item.state != .waiting {
            let r = c == .tags && item.ownerKind == .plan ? 1 : 0
            if model.related(r).isEmpty { model.relate(r, to: projectModels[parent]) }
        }
    }

    /// Records the change tag last fetched of a record: on its row when the device holds one.
    func writeTag(_ id: RecordID, _ tag: Int, project: Int?, item: Int?) {
        if let p = project {
            projectModels[p].setValue(.int(tag), at: ProjectColumn.changeTag)
            return
        }
        if let i = item {
            itemModels[i].setValue(.int(tag), at: ItemColumn.changeTag)
            return
        }
        if let model = tagModels[id] {
            model.setValue(.int(tag), at: 1)
            return
        }
        let model = DeviceEntity.recordTag.make()
        model.setValue(.int(Int(truncatingIfNeeded: id.sortKey)), at: 0)
        model.setValue(.int(tag), at: 1)
        context.insert(model)
        tagModels[id] = model
    }

    func writeNextSerial(_ serial: UInt32) {
        state.setValue(.int(Int(serial)), at: 1)
    }

    /// Saves the context.
    func save() throws(SyncError) {
        do {
            try context.save()
        } catch {
            throw SyncError.storeSave(error.description)
        }
    }

    // MARK: Reading back

    /// The rows a fresh context reads from the container, and the persistence over them.
    func reopen() throws(SyncError) -> (DevicePersistence, SavedRows) {
        let context = ModelContext(owner.container)
        guard let state = context.fetch(.all(entity: DeviceEntity.deviceState.name)).first else {
            throw SyncError.corruptStore("no device state row")
        }
        let reopened = DevicePersistence(reopening: self, state: state, context: context)
        var rows = SavedRows(origin: UInt16(truncatingIfNeeded: try Self.int(state, 0)),
                             nextSerial: UInt32(truncatingIfNeeded: try Self.int(state, 1)))
        var projects: [(order: Int, model: PersistentModel, project: LocalProject)] = []
        for entity in DeviceEntity.projects {
            let kind = ProjectKind.allCases[entity.rawValue]
            for model in context.fetch(.all(entity: entity.name)) {
                var blobs: [[BlobEntry]] = []
                for (slot, collection) in kind.collections.enumerated() {
                    guard let text = model.value(at: ProjectColumn.firstBlob + slot).stringValue else { break }
                    blobs.append(try BlobCodec.decode(BlobText.bytes(text), collection))
                }
                let project = LocalProject(id: try Self.id(model, ProjectColumn.record), kind: kind, blobs: blobs,
                                           dirty: UInt8(truncatingIfNeeded: try Self.int(model, ProjectColumn.dirty)))
                projects.append((try Self.int(model, ProjectColumn.order), model, project))
            }
        }
        projects.sort { $0.order < $1.order }
        rows.projects = projects.map(\.project)
        // Change tags: those of records without a row, then each row's own (the latest).
        for model in context.fetch(.all(entity: DeviceEntity.recordTag.name)) {
            let id = try Self.id(model, 0)
            rows.known.append((id, try Self.int(model, 1)))
            reopened.tagModels[id] = model
        }
        for (_, model, project) in projects {
            let tag = try Self.int(model, ProjectColumn.changeTag)
            if tag != 0 { rows.known.append((project.id, tag)) }
        }
        reopened.projectModels = projects.map(\.model)
        reopened.writtenBlobs = projects.map(\.project.blobs)
        var items: [(order: Int, model: PersistentModel, item: LocalItem)] = []
        for entity in DeviceEntity.items {
            let c = entity.itemCollection
            for model in context.fetch(.all(entity: entity.name)) {
                let kindIndex = try Self.int(model, ItemColumn.ownerKind)
                guard ProjectKind.allCases.indices.contains(kindIndex),
                      let state = ItemState(rawValue: UInt8(truncatingIfNeeded: try Self.int(model, ItemColumn.state))) else {
                    throw SyncError.corruptStore("\(entity.name) row with an unknown owner kind or state")
                }
                var item = LocalItem(id: try Self.id(model, ItemColumn.record), owner: try Self.id(model, ItemColumn.owner),
                                     ownerKind: ProjectKind.allCases[kindIndex], collection: c,
                                     code: try Self.int(model, ItemColumn.code), quantity: 0, position: 0, notes: "",
                                     dirty: UInt8(truncatingIfNeeded: try Self.int(model, ItemColumn.dirty)), state: state)
                if let q = ItemColumn.quantity(c), let n = ItemColumn.notes(c) {
                    item.quantity = try Self.int(model, q)
                    item.notes = model.value(at: n).stringValue ?? ""
                }
                if let p = ItemColumn.position(c) {
                    item.position = Double(bitPattern: UInt64(UInt(bitPattern: try Self.int(model, p))))
                }
                let tag = try Self.int(model, ItemColumn.changeTag)
                if tag != 0 { rows.known.append((item.id, tag)) }
                items.append((try Self.int(model, ItemColumn.order), model, item))
            }
        }
        items.sort { $0.order < $1.order }
        rows.items = items.map(\.item)
        reopened.itemModels = items.map(\.model)
        return (reopened, rows)
    }

    private static func int(_ model: PersistentModel, _ index: Int) throws(SyncError) -> Int {
        guard let value = model.value(at: index).intValue else {
            throw SyncError.corruptStore("\(model.entity.name).\(model.entity.attributes[index].name) is not an integer")
        }
        return value
    }

    private static func id(_ model: PersistentModel, _ index: Int) throws(SyncError) -> RecordID {
        let key = UInt64(UInt(bitPattern: try int(model, index)))
        return RecordID(origin: UInt16(truncatingIfNeeded: key >> 32), serial: UInt32(truncatingIfNeeded: key))
    }
}

/// What a fresh context reads from a device's container, in the rows' local order.
struct SavedRows {
    var origin: UInt16
    var nextSerial: UInt32
    var projects: [LocalProject] = []
    var items: [LocalItem] = []
    var known: [(RecordID, Int)] = []
}

/// A transformable attribute's bytes held in a string attribute value: one Unicode scalar per byte.
enum BlobText {
    static func string(_ bytes: [UInt8]) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
            } else {
                utf8.append(0xC0 | byte >> 6)
                utf8.append(0x80 | byte & 0x3F)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    static func bytes(_ text: String) throws(SyncError) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { throw SyncError.corruptStore("blob text holds U+\(String(scalar.value, radix: 16))") }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }
}

extension DevicePersistence {
    /// The rows saved in the container.
    var savedRowCount: Int { owner.container.rows.count }
}
