/// The three project models of the glass-project app (seed 001).
public enum ProjectKind: String, CaseIterable, Sendable, Hashable {
    case log = "ProjectLog"
    case plan = "ProjectPlan"
    case step = "ProjectStep"

    /// The array-valued properties of the model, in a fixed slot order.
    public var collections: [ProjectCollection] {
        switch self {
        case .log: return Self.logCollections
        case .plan: return Self.planCollections
        case .step: return Self.stepCollections
        }
    }

    // Built once: reads ask for a model's arrays on every step.
    private static let logCollections: [ProjectCollection] = [.glassItems, .tags, .techniques]
    private static let planCollections: [ProjectCollection] = [.glassItems, .referenceUrls, .tags]
    private static let stepCollections: [ProjectCollection] = [.glassItems]

    /// The slot of `collection` in `collections`, or nil when the model has no such array.
    public func slot(of collection: ProjectCollection) -> Int? {
        switch (self, collection) {
        case (_, .glassItems): return 0
        case (.log, .tags): return 1
        case (.log, .techniques): return 2
        case (.plan, .referenceUrls): return 1
        case (.plan, .tags): return 2
        default: return nil
        }
    }
}

/// An array-valued property of a project model, stored either as a transformable blob or as
/// relationship entities.
public enum ProjectCollection: String, CaseIterable, Sendable, Hashable {
    case glassItems
    case tags
    case techniques
    case referenceUrls

    /// Whether the user arranges the items (an explicit `position` on the entity).
    public var isOrdered: Bool { self == .glassItems || self == .referenceUrls }
    /// Whether items carry a quantity (the glass-item join entities).
    public var hasQuantity: Bool { self == .glassItems }

    /// The transformable attribute that holds the array in the current model.
    public func blobAttribute(on kind: ProjectKind) -> String {
        switch self {
        case .glassItems: return kind == .step ? "glass_items_needed_data" : "glass_items_data"
        case .tags: return "tags"
        case .techniques: return "techniques_used"
        case .referenceUrls: return "reference_urls_data"
        }
    }

    /// The relationship entity that replaces the array.
    public func entityName(on kind: ProjectKind) -> String {
        switch self {
        case .glassItems: return kind.rawValue + Self.glassItemSuffix
        case .tags: return "ProjectTag"
        case .techniques: return "ProjectTechnique"
        case .referenceUrls: return "ProjectReferenceUrl"
        }
    }

    /// The stored value of an item with catalogue `code` (a glass natural key, a tag, a URL).
    public func value(code: Int) -> String { valuePrefix + String(valueNumber(code: code)) }

    static let glassItemSuffix = "GlassItem"

    /// The text of a stored value before its number (`value(code:)` is this, then the number).
    var valuePrefix: String {
        switch self {
        case .glassItems: return "bullseye-"
        case .tags: return "tag-"
        case .techniques: return "technique-"
        case .referenceUrls: return "https://example.com/reference/"
        }
    }

    /// The number at the end of a stored value.
    func valueNumber(code: Int) -> Int { self == .glassItems ? 1100 + code : code }

    /// The quantity a new item starts with (0 where the entity has no quantity).
    public var initialQuantity: Int { hasQuantity ? 1 : 0 }
}

/// The phases of the migration from transformable arrays to relationship entities (seed 001).
public enum MigrationPhase: Int, Sendable, Comparable, CaseIterable {
    /// The current design: arrays are transformable blobs only.
    case blobsOnly = 0
    /// Phase 1: entities added and populated from the blobs; every write goes to both; reads use blobs.
    case dualWrite = 1
    /// Phase 2: reads use the entities; writes still go to both (the rollback point).
    case entityReads = 2
    /// Phase 3: the blob attributes are no longer read or written.
    case entitiesOnly = 3

    public static func < (lhs: MigrationPhase, rhs: MigrationPhase) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether writes go to the blobs as well as the entities.
    public var writesBlobs: Bool { self <= .entityReads }
    /// Whether the app reads the entities (otherwise the blobs).
    public var readsEntities: Bool { self >= .entityReads }
}

/// The spacing of explicit positions: a new last item goes about 1024 after the last one.
public enum PositionSpacing {
    public static let step: Double = 1024

    /// A share in [0.25, 0.75) drawn from an item's identity and the position it is placed beside (`anchor`: the
    /// item it goes after or before, or 0 in an empty array). A placement uses it (an append goes `step × (0.5 + share)`
    /// after the last item, a move to an end that far beyond it, a move between neighbours that share of the way from
    /// the one before), so that two devices placing different items concurrently give them different positions: no
    /// two rows tie, and a move never has to renumber rows the user did not move (a renumbering pushes their records,
    /// which under record-level last-writer-wins reverts another device's edit of them, and meets another device's
    /// deletion of them, S4). The anchor matters: with a share of the item alone, two devices that each move their
    /// item past the other's land both at the sum of the same two gaps, a tie.
    public static func share(of id: RecordID, beside anchor: Double) -> Double {
        // SplitMix64's finaliser over the identity and the anchor's bits: 53 well-mixed bits.
        var z = id.sortKey &+ 0x9E37_79B9_7F4A_7C15 &* (anchor.bitPattern | 1)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return 0.25 + Double(z >> 11) * 0x1.0p-53 / 2
    }
}
