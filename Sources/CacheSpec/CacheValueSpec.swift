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
    /// A read returned a value set for another key (its bytes name the key they were set for).
    case otherKeysValue(CacheValueSpec, key: Int)
    /// A read missed but left the key's entry file in place (every miss of a key with a file deletes it).
    case missKeepingFile
    /// contains, hasFile, flipBit.
    case flag(Bool)
    /// A set during which the process crashed, after the restart: whether the crash interrupted the set (C5) and
    /// whether the key's entry file is there (the older file, kept by the restart's cleanup, C9; none if none, C5).
    case crashed(interrupted: Bool, fileKept: Bool)
    /// A count of files (stray files).
    case count(Int)
    /// A concurrent burst: whether every get returned an allowed value, and the value read after it.
    case burst(allGetsAllowed: Bool, after: CacheValueSpec?)

    public var description: String {
        switch self {
        case .done: return "done"
        case .value(let value): return value.map(\.description) ?? "nothing"
        case .damaged(let length): return "damaged bytes (\(length))"
        case .otherKeysValue(let value, let key): return "\(value) of key \(key)"
        case .missKeepingFile: return "nothing, its file kept"
        case .flag(let flag): return String(flag)
        case .count(let count): return String(count)
        case .crashed(let interrupted, let kept): return "\(interrupted ? "interrupted" : "not interrupted"), file \(kept ? "kept" : "none")"
        case .burst(let allowed, let after):
            return "burst(gets \(allowed ? "allowed" : "NOT allowed"), after: \(after.map(\.description) ?? "nothing"))"
        }
    }
}
