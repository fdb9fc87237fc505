/// The server side of the simulation: one record zone holding records with change tags.
///
/// Saves are last-writer-wins (R30) at the granularity of the world; a save of a record the
/// server holds as deleted is refused (a deletion wins over a concurrent edit).
struct CloudServer: Sendable {
    private(set) var records: [CloudRecord] = []
    private var index: [RecordID: Int] = [:]
    private(set) var nextTag = 1

    func record(_ id: RecordID) -> CloudRecord? { index[id].map { records[$0] } }

    enum SaveResult { case saved, refusedDeleted, refusedExists }

    /// Saves `incoming`'s `fields` (all fields for a new record or record granularity). With
    /// `onlyIfAbsent` an existing record, deleted or not, is left alone.
    mutating func save(_ incoming: CloudRecord, fields: UInt8, granularity: ConflictGranularity,
                       onlyIfAbsent: Bool = false) -> SaveResult {
        guard let i = index[incoming.id] else {
            var record = incoming
            record.tag = nextTag
            nextTag += 1
            index[record.id] = records.count
            records.append(record)
            return .saved
        }
        if onlyIfAbsent { return .refusedExists }
        if records[i].deleted { return .refusedDeleted }
        if incoming.deleted || granularity == .record || fields & FieldMask.identity != 0 {
            records[i] = incoming
        } else {
            merge(fields, from: incoming, into: &records[i])
        }
        records[i].tag = nextTag
        nextTag += 1
        return .saved
    }

    private func merge(_ fields: UInt8, from incoming: CloudRecord, into record: inout CloudRecord) {
        switch record.type {
        case .project:
            for slot in 0..<incoming.blobs.count where fields & FieldMask.blob(slot) != 0 {
                while record.blobs.count <= slot { record.blobs.append(nil) }
                record.blobs[slot] = incoming.blobs[slot]
            }
        case .item:
            if fields & FieldMask.quantity != 0 { record.quantity = incoming.quantity }
            if fields & FieldMask.position != 0 { record.position = incoming.position }
        }
    }

    /// Indices of records changed after the tags in `known`, in change order.
    func pending(_ known: (RecordID) -> Int) -> [Int] {
        var result: [Int] = []
        for (i, record) in records.enumerated() where record.tag > known(record.id) { result.append(i) }
        result.sort { records[$0].tag < records[$1].tag }
        return result
    }

    func recordAt(_ i: Int) -> CloudRecord { records[i] }
    func indexOf(_ id: RecordID) -> Int? { index[id] }
}
