/// The recorded decisions of one test case: every random draw as a bounded integer, in order.
///
/// Replaying a sequence reproduces the case exactly; when it runs out every further draw is 0.
public struct ChoiceSequence: Hashable, Sendable, CustomStringConvertible {
    public private(set) var values: [UInt64]

    public init(_ values: [UInt64]) {
        self.values = values
    }

    public var count: Int { values.count }

    /// Shortlex order: fewer choices is simpler; at equal length, the lexicographically smaller is.
    public func isSimpler(than other: ChoiceSequence) -> Bool {
        if values.count != other.values.count { return values.count < other.values.count }
        for (a, b) in zip(values, other.values) where a != b { return a < b }
        return false
    }

    public var description: String { values.map(String.init).joined(separator: " ") }

    /// Parses the space-separated form written by `description`.
    public init?(parsing text: Substring) {
        var values: [UInt64] = []
        for part in text.split(separator: " ", omittingEmptySubsequences: true) {
            guard let value = UInt64(part) else { return nil }
            values.append(value)
        }
        self.init(values)
    }
}
