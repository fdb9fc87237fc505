/// One identifier's folder as a step leaves it: which keys have an entry file, and how many files name no key
/// (temporary files).
public struct CacheFolder: Hashable, Sendable, CustomStringConvertible {
    /// The identifiers' names, by index (`main` is identifier 0).
    public static let names = ["main", "other"]

    public var identifier: Int
    /// Bit `k`: key `k` has an entry file.
    public var files: UInt8
    public var strays: Int
    /// A prediction only (never observed, not compared): the provenance of the folder's parts, by key the rule that
    /// last decided whether its file is there, then the rule that last decided there is no stray file.
    public var provenance: [String]?

    public init(identifier: Int, files: UInt8, strays: Int = 0) {
        self.identifier = identifier
        self.files = files
        self.strays = strays
    }

    /// The folder as observed: its provenance is no part of it.
    public static func == (lhs: CacheFolder, rhs: CacheFolder) -> Bool {
        lhs.identifier == rhs.identifier && lhs.files == rhs.files && lhs.strays == rhs.strays
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(files)
        hasher.combine(strays)
    }

    public func hasFile(_ key: Int) -> Bool { files & (1 << UInt8(key)) != 0 }

    /// `main[0, 2]`, with `+1 stray` when files name no key.
    public var description: String {
        let keys = (0..<8).filter(hasFile).map(String.init).joined(separator: ", ")
        return "\(CacheFolder.names[identifier])[\(keys)]" + (strays == 0 ? "" : " +\(strays) stray")
    }

    /// The label of key `key`'s file among an observation's parts.
    public static func fileLabel(_ identifier: Int, _ key: Int) -> String { fileLabels[identifier][key] }
    /// The label of the folder's stray files among an observation's parts.
    public static func strayLabel(_ identifier: Int) -> String { strayLabels[identifier] }

    /// Made once: a step declares the rule of a part by its label.
    private static let fileLabels = names.map { name in (0..<8).map { "\(name) key \($0)" } }
    private static let strayLabels = names.map { "\($0) strays" }

    /// The folder's parts: each key's file, then its stray files.
    var parts: [(label: String, value: String)] {
        (0..<8).map { (CacheFolder.fileLabel(identifier, $0), hasFile($0) ? "yes" : "no") }
            + [(CacheFolder.strayLabel(identifier), String(strays))]
    }

    /// The rule that last decided part `label` of this folder, when it carries its provenance.
    func rule(ofPart label: String) -> String? {
        guard let provenance else { return nil }
        if label == CacheFolder.strayLabel(identifier) { return provenance.last }
        guard let key = CacheFolder.fileLabels[identifier].firstIndex(of: label), key < provenance.count - 1 else { return nil }
        return provenance[key]
    }
}

/// A key's entry file as it is, read without touching the cache.
public enum CacheFile: Hashable, Sendable, CustomStringConvertible {
    case none
    /// An intact entry of the key holding this value.
    case value(CacheValueSpec)
    /// A file that fails its checksum or does not decode (a torn prefix, a flipped bit).
    case damaged
    /// An intact entry holding a value set for another key (the key's bytes name it; nil when they do not).
    case otherKeys(CacheValueSpec?, key: Int?)

    public var description: String {
        switch self {
        case .none: return "no file"
        case .value(let value): return "file \(value)"
        case .damaged: return "damaged file"
        case .otherKeys(let value, let key):
            return "file of " + (key.map { "key \($0)" } ?? "another key") + (value.map { " (\($0))" } ?? "")
        }
    }
}
