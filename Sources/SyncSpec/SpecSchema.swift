/// The project models as the specification sees them.
public enum SpecProjectKind: Int, CaseIterable, Sendable {
    case log = 0, plan, step

    public var name: String { ["ProjectLog", "ProjectPlan", "ProjectStep"][rawValue] }

    public var collections: [SpecCollection] {
        switch self {
        case .log: return [.glassItems, .tags, .techniques]
        case .plan: return [.glassItems, .referenceUrls, .tags]
        case .step: return [.glassItems]
        }
    }

    public func slot(of collection: SpecCollection) -> Int? { collections.firstIndex(of: collection) }
}

/// An array of a project model.
public enum SpecCollection: Int, CaseIterable, Sendable {
    case glassItems = 0, tags, techniques, referenceUrls

    public var name: String { ["glassItems", "tags", "techniques", "referenceUrls"][rawValue] }
    public var isOrdered: Bool { self == .glassItems || self == .referenceUrls }
    public var hasQuantity: Bool { self == .glassItems }
    public var initialQuantity: Int { hasQuantity ? 1 : 0 }
}

/// The conflict granularity of last-writer-wins (R30, unknown: a parameter).
public enum SpecGranularity: String, CaseIterable, Sendable {
    case record, field
}

/// One item as the app should read it: the object's index (a `Ref` index) and its quantity.
public struct SpecItemRead: Equatable, Sendable {
    public var item: Int32
    public var quantity: Int32

    public init(item: Int32, quantity: Int32) {
        self.item = item
        self.quantity = quantity
    }
}

/// One array of one project on one device, as the app reads it.
public struct SpecCollectionRead: Equatable, Sendable, CustomStringConvertible {
    public var device: Int8
    public var project: Int32
    public var collection: SpecCollection
    public var items: [SpecItemRead]

    public init(device: Int8, project: Int32, collection: SpecCollection, items: [SpecItemRead]) {
        self.device = device
        self.project = project
        self.collection = collection
        self.items = items
    }

    public var description: String {
        let list = items.map { "v\($0.item + 1)" + (collection.hasQuantity ? "×\($0.quantity)" : "") }
        return "\(["A", "B", "C", "D"][Int(device) & 3]):v\(project + 1).\(collection.name)=[\(list.joined(separator: ", "))]"
    }
}

/// The spacing of explicit positions.
public enum SpecPositions {
    public static let step: Double = 1024
}
