@testable import GlassSync
import Testing

/// `CloudRecord.wireSize(fields:)` counts the record's bytes on the wire without building them: it must equal the
/// length of the encoding it stands for, for every record type, field mask and number width.
@Suite struct WireSizeTests {
    static let ids = [RecordID(origin: 0, serial: 1), RecordID(origin: 2, serial: 17), RecordID(origin: 65_535, serial: 4_000_000_000)]
    static let masks: [UInt8] = [0, FieldMask.identity, FieldMask.quantity, FieldMask.position, FieldMask.blob(1),
                                 FieldMask.allItemFields, FieldMask.all]

    @Test func projectRecordsCountTheirEncoding() {
        for kind in ProjectKind.allCases {
            for id in Self.ids {
                for tag in [0, 9, 10, 123_456] {
                    let entries = (0..<3).map { BlobEntry(id: RecordID(origin: 1, serial: UInt32($0)), code: $0, quantity: 2, notes: "sheet \($0)") }
                    let blobs: [[UInt8]?] = kind.collections.enumerated().map { slot, collection in
                        slot == 1 ? nil : BlobCodec.encode(Array(entries.prefix(slot + 1)), collection)
                    }
                    for deleted in [false, true] {
                        var record = CloudRecord(id: id, type: .project(kind), tag: tag, blobs: blobs)
                        record.deleted = deleted
                        for fields in Self.masks {
                            #expect(record.wireSize(fields: fields) == record.wireEncoding(fields: fields).count, "\(kind) \(id) \(fields)")
                        }
                    }
                }
            }
        }
    }

    @Test func itemRecordsCountTheirEncoding() {
        for kind in ProjectKind.allCases {
            for collection in kind.collections {
                for code in [-1_200, -5, 0, 3, 9, 10, 99_999] {
                    for owner in Self.ids {
                        for notes in ["", "sheet 3", "ñotes with ünicode ✓"] {
                            let record = CloudRecord(id: RecordID(origin: 1, serial: 128), type: .item(kind, collection), tag: 5,
                                                     owner: owner, code: code, quantity: -300, position: 1536.5, notes: notes)
                            for fields in Self.masks {
                                #expect(record.wireSize(fields: fields) == record.wireEncoding(fields: fields).count,
                                        "\(kind) \(collection) \(code) \(fields)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func decimalLengthIsTheLengthOfTheNumbersText() {
        for value in [0, 1, -1, 9, 10, -10, 99, 100, 1_000_003, Int.max, Int.min, Int.min + 1] {
            #expect(WireLength.decimalLength(value) == String(value).utf8.count, "\(value)")
        }
    }
}

/// `ByteWriter.string(_:number:)` writes the bytes of `string(prefix + String(number))` without building the text.
@Suite struct WireNumberTextTests {
    @Test func aPrefixAndANumberWriteTheirText() {
        for prefix in ["", "tag-", "bullseye-", "https://example.com/reference/"] {
            for number in [0, 7, -7, 10, 1100, 1103, -1_200, 99_999, Int.max, Int.min] {
                var direct = ByteWriter(), built = ByteWriter()
                direct.string(prefix, number: number)
                built.string(prefix + String(number))
                #expect(direct.bytes == built.bytes, "\(prefix)\(number)")
            }
        }
    }
}
