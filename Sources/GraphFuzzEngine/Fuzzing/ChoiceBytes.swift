/// Choices ↔ the bytes a coverage-guided fuzzer mutates.
///
/// A `Draw` fed by `.bytes` reads each choice big-endian from as many bytes as its bound needs
/// (none for a bound of 0) and reduces it modulo `bound + 1`; missing bytes read as 0. The
/// encoding here is its inverse: a choice sequence, with the bound each choice was drawn under,
/// becomes the bytes that make a `.bytes` draw make the same choices.
package enum ChoiceBytes {
    /// The bytes a choice drawn under `bound` reads from a `.bytes` source.
    @inline(__always)
    package static func width(of bound: UInt64) -> Int {
        (64 - bound.leadingZeroBitCount + 7) / 8
    }

    /// The bytes for `choices` drawn under `bounds` (same length; each choice at most its bound),
    /// without trailing zero bytes (a `.bytes` draw reads those as 0 anyway).
    package static func encode(_ choices: [UInt64], bounds: [UInt64]) -> [UInt8] {
        precondition(choices.count == bounds.count, "ChoiceBytes.encode: \(choices.count) choices but \(bounds.count) bounds")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(choices.count * 2)
        for (value, bound) in zip(choices, bounds) {
            precondition(value <= bound, "ChoiceBytes.encode: choice \(value) above its bound \(bound)")
            var shift = width(of: bound) * 8
            while shift > 0 {
                shift -= 8
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }
        while bytes.last == 0 { bytes.removeLast() }
        return bytes
    }

    /// The bytes that replay `sequence`: `run` draws a case from the draw it is given (a replay of
    /// `sequence` recording bounds); the choices it consumed are encoded. Choices the case does not
    /// consume are dropped, and a choice above its bound is clamped, as replay does.
    package static func bytes(replaying sequence: ChoiceSequence, run: (Draw) -> Void) -> [UInt8] {
        let draw = Draw(replaying: sequence)
        run(draw)
        return encode(draw.choices, bounds: draw.bounds)
    }

    /// The choices a `.bytes` draw makes from `bytes` for the case `run` draws.
    package static func choices(from bytes: [UInt8], run: (Draw) -> Void) -> ChoiceSequence {
        let draw = Draw(.bytes(bytes))
        run(draw)
        return draw.sequence
    }
}
