/// One element of a transformable array: the item's identity, catalogue code, quantity and notes.
/// The array's order is the user's order.
struct BlobEntry: Equatable, Sendable {
    var id: RecordID
    var code: Int
    var quantity: Int
    var notes: String
}

/// The transformer of the array attributes: entries to bytes and back.
enum BlobCodec {
    static func encode(_ entries: [BlobEntry], _ collection: ProjectCollection) -> [UInt8] {
        var writer = ByteWriter(capacity: 8 + entries.count * 32)
        writer.varint(UInt64(entries.count))
        for entry in entries {
            writer.id(entry.id)
            writer.string(collection.valuePrefix, number: collection.valueNumber(code: entry.code))
            writer.int(entry.code)
            if collection.hasQuantity {
                writer.int(entry.quantity)
                writer.string(entry.notes)
            }
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8], _ collection: ProjectCollection) throws(SyncError) -> [BlobEntry] {
        var reader = ByteReader(bytes)
        let n = try reader.count()
        var entries: [BlobEntry] = []
        entries.reserveCapacity(n)
        for _ in 0..<n {
            let id = try reader.id()
            _ = try reader.string()
            let code = try reader.int()
            var quantity = 0, notes = ""
            if collection.hasQuantity {
                quantity = try reader.int()
                notes = try reader.string()
            }
            entries.append(BlobEntry(id: id, code: code, quantity: quantity, notes: notes))
        }
        return entries
    }
}
