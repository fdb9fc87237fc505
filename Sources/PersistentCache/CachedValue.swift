#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value the cache can keep: it serialises to `Data` and back.
public protocol CachedValue: Sendable {
    /// The serialised form written to memory and disk.
    var data: Data { get }
    /// Rebuilds a value from its serialised form; throws when the bytes don't decode.
    static func fromData(data: Data) throws -> Self
}

extension Data: CachedValue {
    /// The bytes themselves.
    public var data: Data { self }
    /// The bytes themselves; never throws.
    public static func fromData(data: Data) throws -> Data { data }
}
