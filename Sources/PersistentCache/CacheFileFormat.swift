#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The layout of an entry's file: magic, a SHA-256 checksum of everything after it, the write
/// time, the key's identity and the value's bytes. A torn, flipped or foreign file fails to decode.
///
///     "PC1\n" | sha256(rest) 32 bytes | rest = writtenAt ms (Int64 BE) | key length (UInt32 BE) | key | value
enum CacheFileFormat {
    static let magic: [UInt8] = Array("PC1\n".utf8)
    static let headerLength = 4 + 32

    enum Decoded: Equatable {
        case entry(payload: Data, writtenAt: Date)
        /// Intact, but written for another key (a hash collision): not this key's value.
        case otherKey
        case corrupt(reason: String)
    }

    static func encode(payload: Data, key: [UInt8], writtenAt: Date) -> Data {
        // The file is laid out in one byte array and made a `Data` once: appending to `Data` byte by byte costs
        // more than the checksum of a small entry.
        var file: [UInt8] = []
        file.reserveCapacity(headerLength + 12 + key.count + payload.count)
        file.append(contentsOf: magic)
        file.append(contentsOf: repeatElement(0, count: 32))
        let milliseconds = UInt64(bitPattern: Int64((writtenAt.timeIntervalSince1970 * 1000).rounded()))
        for shift in stride(from: 56, through: 0, by: -8) { file.append(UInt8(truncatingIfNeeded: milliseconds >> UInt64(shift))) }
        let count = UInt32(key.count)
        for shift in stride(from: 24, through: 0, by: -8) { file.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
        file.append(contentsOf: key)
        file.append(contentsOf: payload)
        let checksum = file.withUnsafeBytes { SHA256.hash(data: UnsafeRawBufferPointer(rebasing: $0[headerLength...])) }
        file.replaceSubrange(magic.count..<headerLength, with: checksum)
        return Data(file)
    }

    static func decode(_ file: Data, key: [UInt8]) -> Decoded {
        file.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Decoded in
            guard bytes.count >= headerLength + 12 else { return .corrupt(reason: "shorter than a header (\(bytes.count) bytes)") }
            guard bytes[0..<4].elementsEqual(magic) else { return .corrupt(reason: "bad magic") }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[headerLength...])
            guard SHA256.hash(data: rest).elementsEqual(bytes[4..<headerLength]) else { return .corrupt(reason: "checksum mismatch") }
            var offset = headerLength
            var milliseconds: UInt64 = 0
            for _ in 0..<8 { milliseconds = milliseconds << 8 | UInt64(bytes[offset]); offset += 1 }
            var count: UInt32 = 0
            for _ in 0..<4 { count = count << 8 | UInt32(bytes[offset]); offset += 1 }
            guard bytes.count - offset >= Int(count) else { return .corrupt(reason: "key longer than the file") }
            guard bytes[offset..<offset + Int(count)].elementsEqual(key) else { return .otherKey }
            offset += Int(count)
            let writtenAt = Date(timeIntervalSince1970: Double(Int64(bitPattern: milliseconds)) / 1000)
            return .entry(payload: Data(bytes[offset...]), writtenAt: writtenAt)
        }
    }
}
