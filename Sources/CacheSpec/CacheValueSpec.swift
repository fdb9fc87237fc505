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
