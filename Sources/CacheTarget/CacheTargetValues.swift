import CacheSpec
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PersistentCache

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
    /// The bytes of `spec` set for `key`: the tag, then a pattern derived from the tag, the key (when given) and the
    /// position, so that a read of another key's value is seen as such (values of one byte excepted).
    public static func bytes(_ spec: CacheValueSpec, key: Int? = nil) -> Data {
        guard spec.length > 0 else { return Data() }
        var bytes = [UInt8](repeating: 0, count: spec.length)
        let tag = UInt8(truncatingIfNeeded: spec.tag)
        let salt = UInt8(truncatingIfNeeded: key.map { ($0 + 1) * 61 } ?? 0)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[0] = tag
            var index = 1
            while index < buffer.count {
                buffer[index] = tag &* 131 &+ UInt8(truncatingIfNeeded: index &* 31) &+ UInt8(truncatingIfNeeded: index >> 8) &+ salt
                index += 1
            }
        }
        return Data(bytes)
    }

    /// What a read of `data` for `key` observed: a value, nothing, another key's value, or bytes no set ever wrote.
    public static func observe(_ data: Data?, key: Int? = nil) -> CacheObservation {
        guard let data else { return .value(nil) }
        guard let first = data.first else { return .value(CacheValueSpec(tag: 0, length: 0)) }
        let spec = CacheValueSpec(tag: Int(first), length: data.count)
        if data == bytes(spec, key: key) { return .value(spec) }
        if key != nil, let other = (0..<CacheMachine.keyCount).first(where: { $0 != key && data == bytes(spec, key: $0) }) {
            return .otherKeysValue(spec, key: other)
        }
        return .damaged(length: data.count)
    }

    /// What a read for `key` observed, and on a miss whether the key's entry file is still there (`fileLeft`,
    /// asked only after a miss): every miss of a key with a file deletes the file (C4, C6).
    public static func observeRead(_ data: Data?, key: Int, fileLeft: () -> Bool) -> CacheObservation {
        let observed = observe(data, key: key)
        return observed == .value(nil) && fileLeft() ? .missKeepingFile : observed
    }

    /// Whether `data` is the bytes of one of `values`.
    public static func isOne(of values: [CacheValueSpec], _ data: Data?, key: Int? = nil) -> Bool {
        guard case .value(let spec?) = observe(data, key: key) else { return false }
        return values.contains(spec)
    }
}

/// What the target observes of folders and files on disk.
public enum CacheTargetFiles {
    /// The folder of identifier `identifier` at `path`: which keys' entry files (`names[key]`) are there, and how many
    /// files name no key. A missing folder holds nothing.
    public static func folder(_ identifier: Int, at path: String, names: [String], in fileSystem: any CacheFileSystem) -> CacheFolder {
        let listed = (try? fileSystem.list(path)) ?? []
        var folder = CacheFolder(identifier: identifier, files: 0)
        for file in listed {
            var named = false
            for (key, name) in names.enumerated() where name == file.name {
                folder.files |= 1 << UInt8(key)
                named = true
            }
            if !named { folder.strays += 1 }
        }
        return folder
    }

    /// The index of identifier `name` (`main` is 0).
    public static func index(of name: String) -> Int { CacheFolder.names.firstIndex(of: name) ?? 0 }

    /// The distinct identifiers of `instances` (their names), by index: the folders a restart cleans.
    public static func identifiers(_ instances: [String]) -> [Int] { Set(instances.map(index(of:))).sorted() }

    /// Key `key`'s entry file as the cache stored it: its value (or another key's, which its bytes name), damaged, or none.
    package static func file(_ entry: StoredEntry, key: Int) -> CacheFile {
        switch entry {
        case .none: return .none
        case .corrupt: return .damaged
        case .otherKey: return .otherKeys(nil, key: nil)
        case .entry(let payload):
            switch CacheTargetValue.observe(payload, key: key) {
            case .value(let value?): return .value(value)
            case .otherKeysValue(let value, let other): return .otherKeys(value, key: other)
            default: return .damaged
            }
        }
    }
}
