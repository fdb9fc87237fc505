/// A stable content hash (FNV-1a, 64-bit) of a case: names corpus files and test functions.
package enum CaseHash {
    package static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    package static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// The first 8 hex digits of the hash of the case's trace.
    package static func hex(of record: CaseRecord) -> String {
        String(hex(fnv1a(([record.config] + record.steps).map(\.description).joined(separator: "\n"))).prefix(8))
    }
}
