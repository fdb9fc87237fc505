/// The record types on the server: a project, or one relationship entity row.
enum RecordType: Equatable, Sendable {
    case project(ProjectKind)
    case item(ProjectKind, ProjectCollection)

    var name: String {
        switch self {
        case .project(let kind): return kind.rawValue
        case .item(let kind, let collection): return collection.entityName(on: kind)
        }
    }

    /// `name.utf8.count`, without building the name.
    var nameLength: Int {
        switch self {
        case .project(let kind): return kind.rawValue.utf8.count
        case .item(let kind, .glassItems): return kind.rawValue.utf8.count + ProjectCollection.glassItemSuffix.utf8.count
        case .item(let kind, let collection): return collection.entityName(on: kind).utf8.count
        }
    }
}

/// Bit masks naming the fields of a record (what a push sends, what a device changed).
enum FieldMask {
    /// The record itself: on an item its immutable fields (parent, value, notes); a new record sends all.
    static let identity: UInt8 = 1
    static let quantity: UInt8 = 2
    static let position: UInt8 = 4
    /// A pending deletion (items only).
    static let deletion: UInt8 = 8
    /// A row created by the phase-1 migration: saved only if the server has no such record yet
    /// (every device migrates the same entries; the first save wins, later ones adopt it).
    static let migrated: UInt8 = 16
    static let allItemFields: UInt8 = identity | quantity | position
    /// The blob attribute in `slot` of a project record.
    static func blob(_ slot: Int) -> UInt8 { 2 << UInt8(slot) }
    static let allProjectFields: UInt8 = all
    /// Every field of any record (what a fetch delivers).
    static let all: UInt8 = 0xFF
}

/// A record as the server holds it, with its change tag.
struct CloudRecord: Sendable {
    var id: RecordID
    var type: RecordType
    /// The change tag: the server's sequence number of the last accepted save.
    var tag: Int
    var deleted = false
    /// Project records: the encoded transformable arrays by slot (nil: never written).
    var blobs: [[UInt8]?] = []
    /// Item records.
    var owner = RecordID(origin: 0, serial: 0)
    var code = 0
    var quantity = 0
    var position = 0.0
    var notes = ""

    var collection: ProjectCollection? {
        if case .item(_, let collection) = type { return collection }
        return nil
    }

    /// The bytes this record takes on the wire when `fields` are sent: the length of `wireEncoding(fields:)`,
    /// counted without building the bytes or the texts (a push and a fetch count every record they move).
    func wireSize(fields: UInt8) -> Int {
        var w = WireLength()
        w.string(utf8Count: type.nameLength)
        w.string(utf8Count: id.recordNameLength)
        w.string(utf8Count: 1 + WireLength.decimalLength(tag))
        w.bool()
        if deleted { return w.count }
        switch type {
        case .project(let kind):
            if fields & FieldMask.identity != 0 {
                w.string(utf8Count: 4)
                w.string(utf8Count: 8 + WireLength.decimalLength(Int(id.serial)))
            }
            for (slot, collection) in kind.collections.enumerated() where fields & FieldMask.blob(slot) != 0 {
                if slot < blobs.count, let blob = blobs[slot] {
                    w.string(utf8Count: collection.blobAttribute(on: kind).utf8.count)
                    w.string(utf8Count: blob.count)
                }
            }
        case .item(let kind, let collection):
            if fields & FieldMask.identity != 0 {
                w.string(utf8Count: kind.rawValue.utf8.count)
                w.string(utf8Count: owner.recordNameLength)
                w.string(utf8Count: 5)
                w.string(utf8Count: collection.valuePrefix.utf8.count + WireLength.decimalLength(collection.valueNumber(code: code)))
                if collection.hasQuantity {
                    w.string(utf8Count: 5)
                    w.string(utf8Count: notes.utf8.count)
                }
            }
            if collection.hasQuantity, fields & (FieldMask.identity | FieldMask.quantity) != 0 {
                w.string(utf8Count: 8)
                w.int(quantity)
            }
            if collection.isOrdered, fields & (FieldMask.identity | FieldMask.position) != 0 {
                w.string(utf8Count: 8)
                w.count += 8
            }
        }
        return w.count
    }

    /// The record's bytes on the wire when `fields` are sent (`wireSize(fields:)` is their count).
    func wireEncoding(fields: UInt8) -> [UInt8] {
        var w = ByteWriter(capacity: 96)
        w.string(type.name)
        w.string(id.description)
        w.string("t\(tag)")
        w.bool(deleted)
        if deleted { return w.bytes }
        switch type {
        case .project(let kind):
            if fields & FieldMask.identity != 0 {
                w.string("name")
                w.string("Project \(id.serial)")
            }
            for (slot, collection) in kind.collections.enumerated() where fields & FieldMask.blob(slot) != 0 {
                if slot < blobs.count, let blob = blobs[slot] {
                    w.string(collection.blobAttribute(on: kind))
                    w.data(blob)
                }
            }
        case .item(let kind, let collection):
            if fields & FieldMask.identity != 0 {
                w.string(kind.rawValue.prefix(1).lowercased() + kind.rawValue.dropFirst())
                w.string(owner.description)
                w.string("value")
                w.string(collection.value(code: code))
                if collection.hasQuantity {
                    w.string("notes")
                    w.string(notes)
                }
            }
            if collection.hasQuantity, fields & (FieldMask.identity | FieldMask.quantity) != 0 {
                w.string("quantity")
                w.int(quantity)
            }
            if collection.isOrdered, fields & (FieldMask.identity | FieldMask.position) != 0 {
                w.string("position")
                w.double(position)
            }
        }
        return w.bytes
    }
}
