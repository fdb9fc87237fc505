/// A value as the specification sees it: a tag naming which set made it and its length in bytes.
/// Every empty value is the same value (tag 0).
public struct CacheValueSpec: Hashable, Sendable, CustomStringConvertible {
    public let tag: Int
    public let length: Int

    public init(tag: Int, length: Int) {
        self.tag = length == 0 ? 0 : tag
        self.length = length
    }

    public var description: String { length == 0 ? "empty" : "#\(tag)×\(length)" }
}

/// What a cache command observed.
public enum CacheObservation: Equatable, Sendable, CustomStringConvertible {
    /// A command with nothing to report.
    case done
    /// A read: a value, or nothing.
    case value(CacheValueSpec?)
    /// A read returned bytes that are no value ever set (a prefix, flipped bits).
    case damaged(length: Int)
    /// contains, hasFile, flipBit.
    case flag(Bool)
    /// A count of files (stray files).
    case count(Int)
    /// A concurrent burst: whether every get returned an allowed value, and the value read after it.
    case burst(allGetsAllowed: Bool, after: CacheValueSpec?)

    public var description: String {
        switch self {
        case .done: return "done"
        case .value(let value): return value.map(\.description) ?? "nothing"
        case .damaged(let length): return "damaged bytes (\(length))"
        case .flag(let flag): return String(flag)
        case .count(let count): return String(count)
        case .burst(let allowed, let after):
            return "burst(gets \(allowed ? "allowed" : "NOT allowed"), after: \(after.map(\.description) ?? "nothing"))"
        }
    }
}
