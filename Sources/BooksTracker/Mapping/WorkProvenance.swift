import GraphStore

/// Where a mapped work came from: its Google Books volume IDs, the backend's subject tags, whether
/// the backend made it up (`synthetic`) and the provider it was taken from.
///
/// The `Work` model does not declare these attributes (yet), so the mapper keeps them in a record of
/// its own, one per work, linked to the work. The link has no inverse (the work cannot declare one),
/// so deleting a work leaves its record behind: every reader checks that the record's work is still
/// live (`DTOMapper.liveWork`) and treats a record of a dead work as absent.
public final class WorkProvenance: PersistentModel {
    public enum Field {
        public static let volumeIDs = 0, subjectTags = 1, synthetic = 2, primaryProvider = 3, recordVersion = 4
        public static let work = 0
    }

    /// The record's version; every record has it, so a fetch on it lists them all.
    public static let currentVersion = 1

    public static let declaration = EntitySchema(
        name: "WorkProvenance",
        attributes: [
            AttributeSchema("googleBooksVolumeIDs", .string, default: .string("")),
            AttributeSchema("subjectTags", .string, default: .string("")),
            AttributeSchema("synthetic", .bool, default: .bool(false)),
            AttributeSchema("primaryProvider", .string, optional: true),
            AttributeSchema("recordVersion", .int, default: .int(WorkProvenance.currentVersion)),
        ],
        relationships: [
            RelationshipSchema("work", to: "Work", toMany: false, inverse: nil, deleteRule: .noAction),
        ])

    override public class var schemaEntity: EntitySchema { declaration }

    public init(volumeIDs: [String] = [], subjectTags: [String] = [], synthetic: Bool = false, primaryProvider: String? = nil) {
        super.init()
        self.volumeIDs = volumeIDs
        self.subjectTags = subjectTags
        self.synthetic = synthetic
        self.primaryProvider = primaryProvider
    }

    public required init(backingData: BackingData) { super.init(backingData: backingData) }

    /// Google Books volume IDs, in the order they were added.
    public var volumeIDs: [String] {
        get { StringList.decode(value(at: Field.volumeIDs).stringValue ?? "") }
        set { setValue(.string(StringList.encode(newValue)), at: Field.volumeIDs) }
    }
    /// Subject tags exactly as the backend sent them.
    public var subjectTags: [String] {
        get { StringList.decode(value(at: Field.subjectTags).stringValue ?? "") }
        set { setValue(.string(StringList.encode(newValue)), at: Field.subjectTags) }
    }
    public var synthetic: Bool {
        get { value(at: Field.synthetic).boolValue ?? false }
        set { setValue(.bool(newValue), at: Field.synthetic) }
    }
    public var primaryProvider: String? {
        get { value(at: Field.primaryProvider).stringValue }
        set { setValue(newValue.map(AttributeValue.string) ?? .null, at: Field.primaryProvider) }
    }
    /// The work this record describes (no inverse: it may be a deleted work).
    public var work: Work? {
        get { related(Field.work).first as? Work }
        set { setToOne(Field.work, newValue) }
    }
}

/// A list of strings stored as one attribute (R31: a list is one opaque value), separated by U+001F.
/// Empty strings are not kept.
public enum StringList {
    static let separator: Character = "\u{1F}"

    /// The stored form of `values`.
    public static func encode(_ values: [String]) -> String { values.joined(separator: String(separator)) }

    /// The list a stored value holds.
    public static func decode(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: separator, omittingEmptySubsequences: true).map(String.init)
    }
}
