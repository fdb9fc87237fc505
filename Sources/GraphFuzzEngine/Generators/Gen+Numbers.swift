extension Gen where Value == Int {
    /// An integer in `range`, shrinking towards the value in the range closest to zero.
    ///
    /// Every integer costs exactly two choices, whatever its range, so a value's position in the
    /// choice sequence never depends on values drawn before it (a bound taken from an earlier value
    /// can move without shifting the choices after it). A range around zero is drawn as a magnitude
    /// and then a sign (0 = positive), so shrinking lowers magnitudes first and then prefers
    /// positive values; other ranges are an offset from the end nearest zero followed by a sign
    /// choice fixed at 0.
    package static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        Gen { draw in draw.int(in: range) }
    }

    /// Any `Int`, shrinking towards 0 (then towards positive values).
    package static var int: Gen<Int> { int(in: Int.min...Int.max) }
    /// A 16-bit signed integer.
    package static var int16: Gen<Int> { int(in: Int(Int16.min)...Int(Int16.max)) }
    /// A 32-bit signed integer.
    package static var int32: Gen<Int> { int(in: Int(Int32.min)...Int(Int32.max)) }
}

extension Gen where Value == Bool {
    package static var bool: Gen<Bool> { Gen { $0.chooseBool() } }
}

extension Draw {
    /// An integer in `range`; see `Gen.int(in:)` for how it is encoded (always two choices).
    public func int(in range: ClosedRange<Int>) -> Int {
        let lower = range.lowerBound, upper = range.upperBound
        if lower >= 0 {
            let value = lower + Int(choose(upTo: UInt64(upper - lower)))
            forcedZero()
            return value
        }
        if upper <= 0 {
            let offset = choose(upTo: UInt64(lower.magnitude - upper.magnitude))
            forcedZero()
            return Int(truncatingIfNeeded: UInt64(bitPattern: Int64(upper)) &- offset)
        }
        // Magnitude first, then a sign (0 = positive): values order as 0, 1, -1, 2, -2, … so
        // shrinking lowers magnitude before it prefers positive. The sign is always drawn, even
        // where the range forces it, so lowering a magnitude never shifts the choices after it.
        return span(.value) {
            let below = UInt64(lower.magnitude)
            let magnitude = choose(upTo: Swift.max(below, UInt64(upper)))
            let sign = chooseBool()
            let negative = magnitude > UInt64(upper) || (sign && magnitude <= below)
            return negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude)
        }
    }

    /// Rejects the case (it is discarded, never reported) unless `condition` holds; returns it.
    /// Use it inside a generator for assumptions that tie values together.
    @discardableResult
    package func assume(_ condition: Bool) -> Bool {
        if !condition { reject() }
        return condition
    }

    /// An element of a non-empty collection, shrinking towards the first.
    package func element<C: RandomAccessCollection>(of collection: C) -> C.Element where C.Index == Int {
        precondition(!collection.isEmpty, "element(of:) needs a non-empty collection")
        let offset = Int(chooseUniform(upTo: UInt64(collection.count - 1)))
        return collection[collection.startIndex + offset]
    }
}
