import CacheSpec
import Foundation

/// The key type the `cache` target stores: keys `2g` and `2g + 1` print alike ("key-g") but are
/// different keys.
public struct CacheTargetKey: Hashable, CustomStringConvertible, Sendable {
    public let group: Int
    public let variant: Int

    public init(group: Int, variant: Int) {
        self.group = group
        self.variant = variant
    }

    /// Key number `index` of the target's key space.
    public init(_ index: Int) { self.init(group: index / 2, variant: index % 2) }

    public var description: String { "key-\(group)" }
}

/// The bytes of specification values, and back.
public enum CacheTargetValue {
    /// The bytes of `spec`: the tag, then a pattern derived from the tag and the position.
    public static func bytes(_ spec: CacheValueSpec) -> Data {
        guard spec.length > 0 else { return Data() }
        var bytes = [UInt8](repeating: 0, count: spec.length)
        let tag = UInt8(truncatingIfNeeded: spec.tag)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[0] = tag
            var index = 1
            while index < buffer.count {
                buffer[index] = tag &* 131 &+ UInt8(truncatingIfNeeded: index &* 31) &+ UInt8(truncatingIfNeeded: index >> 8)
                index += 1
            }
        }
        return Data(bytes)
    }

    /// What a read of `data` observed: a value, nothing, or bytes no set ever wrote.
    public static func observe(_ data: Data?) -> CacheObservation {
        guard let data else { return .value(nil) }
        guard let first = data.first else { return .value(CacheValueSpec(tag: 0, length: 0)) }
        let spec = CacheValueSpec(tag: Int(first), length: data.count)
        return data == bytes(spec) ? .value(spec) : .damaged(length: data.count)
    }

    /// Whether `data` is the bytes of one of `values`.
    public static func isOne(of values: [CacheValueSpec], _ data: Data?) -> Bool {
        guard case .value(let spec?) = observe(data) else { return false }
        return values.contains(spec)
    }
}
