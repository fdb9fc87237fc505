/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast, documented generator whose output
/// depends only on its 64-bit state, so a seed means the same run on every machine and Swift version.
/// The system generator is never used anywhere in GraphFuzz.
@usableFromInline package struct SplitMix64: RandomNumberGenerator, Sendable {
    package private(set) var state: UInt64

    @usableFromInline package init(seed: UInt64) { state = seed }

    @inline(__always)
    @usableFromInline package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0...bound` without modulo bias (Lemire's method).
    @inline(__always)
    @usableFromInline package mutating func next(upTo bound: UInt64) -> UInt64 {
        if bound == .max { return next() }
        let range = bound &+ 1
        var m = next().multipliedFullWidth(by: range)
        if m.low < range {
            let threshold = (0 &- range) % range
            while m.low < threshold { m = next().multipliedFullWidth(by: range) }
        }
        return m.high
    }

    /// The seed of case `index` of a run seeded with `seed`: each case can be regenerated alone,
    /// which makes sharding and parallel workers deterministic.
    @usableFromInline package static func caseSeed(run seed: UInt64, case index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }
}
