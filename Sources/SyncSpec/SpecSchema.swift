/// The project models as the specification sees them.
public enum SpecProjectKind: Int, CaseIterable, Sendable {
    case log = 0, plan, step

    public var name: String { ["ProjectLog", "ProjectPlan", "ProjectStep"][rawValue] }

    /// The model's arrays in slot order (seed 001's models).
    public var collections: [SpecCollection] {
        [[.glassItems, .tags, .techniques], [.glassItems, .referenceUrls, .tags], [.glassItems]][rawValue]
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

/// One item as the app should read it: the object's index (a `Ref` index), its quantity and its code (an item's
/// immutable value, which every copy of it carries).
public struct SpecItemRead: Equatable, Sendable {
    public var item: Int32
    public var quantity: Int32
    public var code: Int32

    public init(item: Int32, quantity: Int32, code: Int32) { (self.item, self.quantity, self.code) = (item, quantity, code) }
}

/// A pair of items the order rules decide: `before` comes before `after` (object indexes).
public struct SpecPrecedence: Equatable, Sendable {
    public var before: Int32
    public var after: Int32

    public init(before: Int32, after: Int32) { (self.before, self.after) = (before, after) }
}

/// One array of one project on one device, as the app reads it.
public struct SpecCollectionRead: Equatable, Sendable, CustomStringConvertible {
    public var device: Int8
    public var project: Int32
    public var collection: SpecCollection
    public var items: [SpecItemRead]
    /// A prediction only (never observed, not compared by `==`): nil when the rules decide the whole order and
    /// `items` is it; otherwise the pairs they decide, and `items` is one order that keeps them (S4, S9).
    public var precedences: [SpecPrecedence]?

    public init(device: Int8, project: Int32, collection: SpecCollection, items: [SpecItemRead]) {
        self.device = device
        self.project = project
        self.collection = collection
        self.items = items
    }

    /// Field by field, reading the item lists in place (the derived `==` copies each read out of its array,
    /// retaining and releasing its list, once per compared read).
    public static func == (lhs: SpecCollectionRead, rhs: SpecCollectionRead) -> Bool {
        lhs.device == rhs.device && lhs.project == rhs.project && lhs.collection == rhs.collection
            && equalItems(lhs.items, rhs.items)
    }

    @inline(__always)
    private static func equalItems(_ lhs: [SpecItemRead], _ rhs: [SpecItemRead]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBufferPointer { l in
            rhs.withUnsafeBufferPointer { r in
                for i in l.indices where l[i].item != r[i].item || l[i].quantity != r[i].quantity || l[i].code != r[i].code { return false }
                return true
            }
        }
    }

    /// Whether two lists of reads are equal, reading them in place.
    public static func equal(_ lhs: [SpecCollectionRead], _ rhs: [SpecCollectionRead]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBufferPointer { l in
            rhs.withUnsafeBufferPointer { r in
                if l.baseAddress == r.baseAddress { return true }
                for i in l.indices {
                    guard l[i].device == r[i].device, l[i].project == r[i].project, l[i].collection == r[i].collection,
                          Self.equalItems(l[i].items, r[i].items) else { return false }
                }
                return true
            }
        }
    }

    /// Whether two lists of reads match pairwise: where one read is a prediction that leaves part of its order open
    /// (`precedences`), the other must be an order it admits; otherwise they are equal.
    public static func match(_ lhs: [SpecCollectionRead], _ rhs: [SpecCollectionRead]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for i in lhs.indices {
            switch (lhs[i].precedences, rhs[i].precedences) {
            case (nil, nil), (_?, _?): guard lhs[i] == rhs[i] else { return false }
            case (_?, nil): guard lhs[i].admits(rhs[i]) else { return false }
            case (nil, _?): guard rhs[i].admits(lhs[i]) else { return false }
            }
        }
        return true
    }

    /// Whether an observed read is one this prediction allows: the same array with exactly these items and
    /// quantities, in this order when the rules decide it, otherwise in any order that keeps every pair in
    /// `precedences`.
    public func admits(_ observed: SpecCollectionRead) -> Bool {
        guard let precedences else { return self == observed }
        guard device == observed.device, project == observed.project, collection == observed.collection,
              items.count == observed.items.count, items.allSatisfy(observed.items.contains) else { return false }
        return precedences.allSatisfy { pair in
            guard let b = observed.items.firstIndex(where: { $0.item == pair.before }),
                  let a = observed.items.firstIndex(where: { $0.item == pair.after }) else { return false }
            return b < a
        }
    }

    public var description: String {
        let list = items.map { "v\($0.item + 1)" + (collection.hasQuantity ? "×\($0.quantity)" : "") }
        return "\(name)=[\(list.joined(separator: ", "))]"
    }

    /// The array's name in reports: `A:v3.glassItems`.
    public var name: String { Self.name(device: Int(device), project: Int(project), collection) }

    public static func name(device: Int, project: Int, _ collection: SpecCollection) -> String {
        "\(["A", "B", "C", "D"][device & 3]):v\(project + 1).\(collection.name)"
    }
}
