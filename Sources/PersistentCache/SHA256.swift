#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SHA-256 (FIPS 180-4), written here because Foundation on Linux has no CryptoKit.
public struct SHA256: Sendable {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// A fresh hash state.
    public init() { buffer.reserveCapacity(64) }

    /// The digest of `data` in one call.
    public static func hash<D: DataProtocol>(data: D) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// The digest of `data` as 64 lowercase hex digits.
    public static func hexDigest<D: DataProtocol>(of data: D) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in hash(data: data) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Feeds more bytes.
    public mutating func update<D: DataProtocol>(data: D) {
        for region in data.regions {
            region.withUnsafeBytes { raw in update(raw) }
        }
    }

    private mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = Swift.min(64 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[0..<take])
            offset = take
            if buffer.count == 64 {
                buffer.withUnsafeBytes { compress($0.baseAddress!) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
    }

    /// Pads, processes the last block and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = buffer
        tail.append(0x80)
        tail.append(contentsOf: repeatElement(0, count: (56 - tail.count % 64 + 64) % 64))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                compress(raw.baseAddress! + offset)
                offset += 64
            }
        }
        buffer.removeAll()
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in words {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Rotation right by a constant: masking shifts, which compile to one rotate instruction.
    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

    /// One round of the compression: `d` and `h` take their new values; the caller rotates the roles of the eight
    /// working variables instead of moving them (FIPS 180-4, 6.2.2 step 3, with Ch and Maj in fewer operations).
    @inline(__always)
    private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
                              _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
        d = d &+ t1
        h = t1 &+ (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | (c & (a | b)))
    }

    /// Processes one 64-byte block at `block`: the message schedule on the stack, the working variables in registers.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
            let w = buffer.baseAddress!
            for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)) }
            for i in 16..<64 {
                let w15 = w[i &- 15], w2 = w[i &- 2]
                let s0 = SHA256.rotr(w15, 7) ^ SHA256.rotr(w15, 18) ^ (w15 &>> 3)
                let s1 = SHA256.rotr(w2, 17) ^ SHA256.rotr(w2, 19) ^ (w2 &>> 10)
                w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            SHA256.k.withUnsafeBufferPointer { table in
                let k = table.baseAddress!
                var i = 0
                while i < 64 {
                    SHA256.round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
                    SHA256.round(h, a, b, &c, d, e, f, &g, k[i &+ 1] &+ w[i &+ 1])
                    SHA256.round(g, h, a, &b, c, d, e, &f, k[i &+ 2] &+ w[i &+ 2])
                    SHA256.round(f, g, h, &a, b, c, d, &e, k[i &+ 3] &+ w[i &+ 3])
                    SHA256.round(e, f, g, &h, a, b, c, &d, k[i &+ 4] &+ w[i &+ 4])
                    SHA256.round(d, e, f, &g, h, a, b, &c, k[i &+ 5] &+ w[i &+ 5])
                    SHA256.round(c, d, e, &f, g, h, a, &b, k[i &+ 6] &+ w[i &+ 6])
                    SHA256.round(b, c, d, &e, f, g, h, &a, k[i &+ 7] &+ w[i &+ 7])
                    i &+= 8
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                     state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }
}
