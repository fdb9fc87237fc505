/// A symbolic reference to an object created by an earlier step, printed `v1`, `v2`, …
/// (Hypothesis' bundles). The specification and the system each map it to their own object.
public struct Ref: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 0-based creation index: `v1` is index 0.
    public let index: Int

    public init(_ index: Int) { self.index = index }

    public init?(parsing text: Substring) {
        guard text.first == "v", let number = Int(text.dropFirst()), number >= 1 else { return nil }
        index = number - 1
    }

    public var description: String { "v\(index + 1)" }
    public static func < (lhs: Ref, rhs: Ref) -> Bool { lhs.index < rhs.index }
}
