import GraphFuzzEngine

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
    /// A count of files (stray files).
    case count(Int)
    /// A set, or a cleanup (`cleanUp`, `open`, `restart`): the folders it wrote to or cleaned, afterwards.
    case folders([CacheFolder])
    /// A set whose write failed without a crash: whether its armed rename fault was reached (`failedRename` only,
    /// else nil), and its folder afterwards.
    case failedWrite(renameReached: Bool?, CacheFolder)
    /// A set during which the process crashed, after the restart: whether the crash interrupted the set, the key's
    /// file, and the folders the restart cleaned.
    case crashed(interrupted: Bool, file: CacheFile, folders: [CacheFolder])

    public var description: String {
        switch self {
        case .done: return "done"
        case .value(let value): return value.map(\.description) ?? "nothing"
        case .damaged(let length): return "damaged bytes (\(length))"
        case .otherKeysValue(let value, let key): return "\(value) of key \(key)"
        case .missKeepingFile: return "nothing, its file kept"
        case .flag(let flag): return String(flag)
        case .count(let count): return String(count)
        case .folders(let folders): return folders.map(\.description).joined(separator: " ")
        case .failedWrite(let reached, let folder):
            return (reached.map { $0 ? "rename reached, " : "no rename, " } ?? "") + folder.description
        case .crashed(let interrupted, let file, let folders):
            return "\(interrupted ? "interrupted" : "not interrupted"), \(file), " + folders.map(\.description).joined(separator: " ")
        }
    }
}

/// The labels of the parts a specification declares rules for.
extension CacheObservation {
    /// A read's part: whose value it returned (its own key's, or another key's).
    public static let keyLabel = "key"
    /// A failed write's part: whether its failing rename was reached.
    public static let renameLabel = "rename"
    /// A crash's parts: whether it interrupted the set, whose value the key's file holds, whether the key has a file,
    /// whether the file is damaged (a prefix, a flipped bit), and the file.
    public static let interruptedLabel = "interrupted"
    public static let fileKeyLabel = "file's key"
    public static let fileDamagedLabel = "file damaged"
    public static let fileKeptLabel = "file kept"
    public static let fileLabel = "file"
}

extension CacheObservation: ObservationParts {
    /// Reads have one part: whose value came back. Observations with one value and no other rule (`done`, a flag, a
    /// count) have none. The others are their fields and each folder's files.
    public var parts: [(label: String, value: String)] {
        switch self {
        case .value, .damaged, .missKeepingFile: return [(Self.keyLabel, "its own")]
        case .otherKeysValue(_, let key): return [(Self.keyLabel, "key \(key)")]
        case .done, .flag, .count: return []
        case .folders(let folders): return folders.flatMap(\.parts)
        case .failedWrite(let reached, let folder): return [(Self.renameLabel, reached.map(String.init) ?? "-")] + folder.parts
        case .crashed(let interrupted, let file, let folders):
            var key = "its own"
            if case .otherKeys(_, let other) = file { key = other.map { "key \($0)" } ?? "another key" }
            let kept = file == .none ? "no" : "yes"
            return [(Self.interruptedLabel, String(interrupted)), (Self.fileKeyLabel, key), (Self.fileKeptLabel, kept),
                    (Self.fileDamagedLabel, file == .damaged ? "yes" : "no"), (Self.fileLabel, file.description)] + folders.flatMap(\.parts)
        }
    }

    /// Provenance of a predicted folder's parts (`CacheFolder.rule(ofPart:)`).
    public func rule(ofPart label: String, observed: CacheObservation) -> String? {
        switch self {
        case .folders(let folders), .crashed(_, _, let folders): return folders.lazy.compactMap { $0.rule(ofPart: label) }.first
        case .failedWrite(_, let folder): return folder.rule(ofPart: label)
        default: return nil
        }
    }
}
