/// The identity of a record: the device (or 0 for the server's seed data) that created it and a
/// serial number on that device. Record names are derived from it, so every device and the
/// server agree on the name of the same item; migration reuses the blob entry's identity.
public struct RecordID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The creating device (device d is origin d + 1), or 0 for the server's seed data.
    public let origin: UInt16
    /// The creating device's running number.
    public let serial: UInt32

    public init(origin: UInt16, serial: UInt32) {
        self.origin = origin
        self.serial = serial
    }

    /// One integer that sorts like the identity (origin first, then serial).
    public var sortKey: UInt64 { UInt64(origin) << 32 | UInt64(serial) }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool { lhs.sortKey < rhs.sortKey }

    /// The CloudKit-style record name, e.g. `2-17`.
    public var description: String { "\(origin)-\(serial)" }

    /// `description.utf8.count`, without building the name.
    var recordNameLength: Int { WireLength.decimalLength(Int(origin)) + 1 + WireLength.decimalLength(Int(serial)) }
}

/// One item as the app reads it.
public struct ItemRead: Equatable, Sendable, CustomStringConvertible {
    public var id: RecordID
    public var code: Int
    public var quantity: Int

    public init(id: RecordID, code: Int, quantity: Int) {
        self.id = id
        self.code = code
        self.quantity = quantity
    }

    public var description: String { "\(id)×\(quantity)" }
}
