/// A compact binary writer: varints, strings (length + UTF-8), doubles. Used for transformable
/// blobs, for the sizes of records on the wire, and for a device's persisted store image.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func int(_ value: Int) { varint(UInt64(bitPattern: Int64(value)) &<< 1 ^ UInt64(bitPattern: Int64(value) >> 63)) }

    mutating func string(_ text: String) {
        let utf8 = text.utf8
        varint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// `string(prefix + String(number))`, without building the text.
    mutating func string(_ prefix: String, number: Int) {
        let utf8 = prefix.utf8
        let digits = WireLength.decimalLength(number) - (number < 0 ? 1 : 0)
        varint(UInt64(utf8.count + WireLength.decimalLength(number)))
        bytes.append(contentsOf: utf8)
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var v = number.magnitude, i = bytes.count
        repeat {
            i -= 1
            bytes[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        } while i > start
    }

    mutating func double(_ value: Double) {
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(bits & 0xFF))
            bits >>= 8
        }
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func data(_ data: [UInt8]) {
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    mutating func id(_ id: RecordID) { varint(id.sortKey) }
}

/// Counts the bytes `ByteWriter` would write, without writing them.
struct WireLength {
    var count = 0

    mutating func varint(_ value: UInt64) {
        var v = value
        count += 1
        while v >= 0x80 {
            v >>= 7
            count += 1
        }
    }

    mutating func int(_ value: Int) { varint(UInt64(bitPattern: Int64(value)) &<< 1 ^ UInt64(bitPattern: Int64(value) >> 63)) }

    /// A string (or data) of `n` bytes: its length, then the bytes.
    mutating func string(utf8Count n: Int) {
        varint(UInt64(n))
        count += n
    }

    mutating func bool() { count += 1 }

    /// The length of `String(value)`.
    static func decimalLength(_ value: Int) -> Int {
        var n = 1, v = value.magnitude
        while v >= 10 {
            v /= 10
            n += 1
        }
        return value < 0 ? n + 1 : n
    }
}

/// Reads what `ByteWriter` wrote; every failure names the offset.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func varint() throws(SyncError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw SyncError.corruptImage(offset: offset, "truncated varint") }
            guard shift < 64 else { throw SyncError.corruptImage(offset: offset, "varint too long") }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func int() throws(SyncError) -> Int {
        let raw = try varint()
        return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    mutating func count(limit: Int = 1 << 24) throws(SyncError) -> Int {
        let start = offset
        let value = try varint()
        guard value <= UInt64(limit), value <= UInt64(bytes.count - offset) else {
            throw SyncError.corruptImage(offset: start, "count \(value) exceeds the image")
        }
        return Int(value)
    }

    mutating func raw(_ n: Int) throws(SyncError) -> ArraySlice<UInt8> {
        guard n <= bytes.count - offset else { throw SyncError.corruptImage(offset: offset, "needs \(n) bytes") }
        defer { offset += n }
        return bytes[offset..<(offset + n)]
    }

    mutating func string() throws(SyncError) -> String {
        let n = try count()
        return String(decoding: try raw(n), as: UTF8.self)
    }

    mutating func double() throws(SyncError) -> Double {
        var bits: UInt64 = 0
        for (i, byte) in try raw(8).enumerated() { bits |= UInt64(byte) << (8 * UInt64(i)) }
        return Double(bitPattern: bits)
    }

    mutating func bool() throws(SyncError) -> Bool {
        let byte = try raw(1).first!
        guard byte <= 1 else { throw SyncError.corruptImage(offset: offset - 1, "bool \(byte)") }
        return byte == 1
    }

    mutating func data() throws(SyncError) -> [UInt8] { Array(try raw(try count())) }

    mutating func id() throws(SyncError) -> RecordID {
        let key = try varint()
        return RecordID(origin: UInt16(truncatingIfNeeded: key >> 32), serial: UInt32(truncatingIfNeeded: key))
    }
}
