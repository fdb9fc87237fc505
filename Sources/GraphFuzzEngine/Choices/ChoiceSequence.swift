/// The recorded decisions of one test case: every random draw as a bounded integer, in order.
///
/// Replaying a sequence reproduces the case exactly; when it runs out every further draw is 0.
public struct ChoiceSequence: Hashable, Sendable, CustomStringConvertible {
    /// The choices, in the order they were drawn.
    public private(set) var values: [UInt64]

    /// A sequence of these choices (replayed by `Draw(replaying:)`).
    public init(_ values: [UInt64]) {
        self.values = values
    }

    @usableFromInline package var count: Int { values.count }

    /// Equal when the choices are.
    public static func == (lhs: ChoiceSequence, rhs: ChoiceSequence) -> Bool { lhs.values == rhs.values }

    /// Hashes the length and one word folded from the choices (FNV-1a over whole choices): a shrink puts every
    /// candidate in a set, and feeding the hasher every choice of a sequence of hundreds would cost more than the
    /// set's other work. Equality still compares every choice.
    public func hash(into hasher: inout Hasher) {
        var folded: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in values { folded = (folded ^ value) &* 0x0000_0100_0000_01b3 }
        hasher.combine(values.count)
        hasher.combine(folded)
    }

    /// Shortlex order: fewer choices is simpler; at equal length, the lexicographically smaller is.
    @usableFromInline package func isSimpler(than other: ChoiceSequence) -> Bool {
        if values.count != other.values.count { return values.count < other.values.count }
        for (a, b) in zip(values, other.values) where a != b { return a < b }
        return false
    }

    /// The choices separated by spaces, as `init?(parsing:)` reads them.
    public var description: String { values.map(String.init).joined(separator: " ") }

    /// Parses the space-separated form written by `description`.
    @usableFromInline package init?(parsing text: Substring) {
        guard let values = Self.values(parsing: text) else { return nil }
        self.init(values)
    }

    /// Space-separated decimal numbers (runs of spaces allowed, no sign), read from the text's UTF-8 bytes; nil when
    /// anything else is there or a number does not fit 64 bits. The worker protocol's lists of choices and bounds.
    package static func values(parsing text: Substring) -> [UInt64]? {
        var values: [UInt64] = []
        var value: UInt64 = 0, inNumber = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") {
                if inNumber { values.append(value) }
                value = 0
                inNumber = false
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, carried) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflowed && !carried else { return nil }
                value = sum
                inNumber = true
            } else {
                return nil
            }
        }
        if inNumber { values.append(value) }
        return values
    }
}
