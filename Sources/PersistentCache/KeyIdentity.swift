package import FaultPoints

/// What distinguishes two keys.
enum KeyIdentity: Hashable, Sendable {
    /// Memory by the key itself; disk by its type, description and stored structure (shipped).
    case typeAndStructure
    /// Both tiers by the key's description alone, as the seed does (the `descriptionOnlyKeys` fault).
    case descriptionOnly
}

extension Fault<CacheDesign> {
    /// Mutant `seed-description-keys`: keys are told apart by their description alone, as the seed does.
    package static var descriptionOnlyKeys: Self { Self() }
}

/// Identifies a cached key record: the key and how it is identified.
struct KeyRecordID: Hashable {
    var key: AnyHashable
    var identity: KeyIdentity
}

/// A key's stable identity on disk and its identity in memory.
struct KeyRecord: @unchecked Sendable {
    /// Identifies the key in the memory tier.
    var memoryKey: AnyHashable
    /// The stable text stored in the entry's file and hashed into its name.
    var encoded: [UInt8]
    /// The entry's file name: the SHA-256 hex digest of `encoded`.
    var fileName: String
}

enum KeyEncoder {
    /// The record of `key` under `identity`.
    static func record<Key: Hashable & CustomStringConvertible & Sendable>(_ key: Key, identity: KeyIdentity) -> KeyRecord {
        let text: String
        let memoryKey: AnyHashable
        switch identity {
        case .descriptionOnly:
            text = key.description
            memoryKey = AnyHashable(key.description)
        case .typeAndStructure:
            var out = String(reflecting: Key.self) + "\n" + key.description + "\n"
            appendStructure(of: key, to: &out, depth: 0)
            text = out
            memoryKey = AnyHashable(key)
        }
        let encoded = Array(text.utf8)
        return KeyRecord(memoryKey: memoryKey, encoded: encoded, fileName: SHA256.hexDigest(of: encoded))
    }

    /// The stored structure of `value` (field labels and leaf values), stable across launches for
    /// value types. Two keys that differ only in what `Mirror` cannot see are not told apart.
    private static func appendStructure(of value: Any, to out: inout String, depth: Int) {
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty, depth < 8 else {
            out += String(describing: type(of: value)) + "=" + String(reflecting: value)
            return
        }
        out += String(describing: type(of: value)) + "("
        for child in mirror.children {
            out += (child.label ?? "_") + ":"
            appendStructure(of: child.value, to: &out, depth: depth + 1)
            out += ","
        }
        out += ")"
    }
}
