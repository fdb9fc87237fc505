import GraphFuzzEngine

/// What a step observes: the arrays the app reads (on the devices the step concerns) and, during dual-write, the
/// same arrays read from the representation the app does not read (the mirrors).
///
/// A prediction whose reads leave part of an order open (`SpecCollectionRead.precedences`) stands for every order
/// that keeps the pairs the rules decide: `==` between it and an observation is whether the observation is one of
/// them. Otherwise `==` is equality.
public struct SyncObservation: Equatable, Sendable, CustomStringConvertible {
    public var reads: [SpecCollectionRead]
    public var mirrors: [SpecCollectionRead]?
    /// A prediction only (never observed, not compared): its provenance, by device and item the rule that last
    /// changed whether the item is in its array.
    public var presence: [[String]]?

    public init(reads: [SpecCollectionRead], mirrors: [SpecCollectionRead]?) {
        self.reads = reads
        self.mirrors = mirrors
    }

    /// Whether the two representations read alike (S1): no mirror, mirrors equal to the reads, or mirrors that differ.
    enum Agreement: Equatable { case noMirror, agrees, differs }

    var agreement: Agreement {
        guard let mirrors else { return .noMirror }
        return SpecCollectionRead.equal(mirrors, reads) ? .agrees : .differs
    }

    /// The reads match (`SpecCollectionRead.match`), the mirrors agree with the reads alike on both sides, and
    /// mirrors that differ from their reads are equal.
    public static func == (lhs: SyncObservation, rhs: SyncObservation) -> Bool {
        guard SpecCollectionRead.match(lhs.reads, rhs.reads) else { return false }
        let agreement = lhs.agreement
        guard agreement == rhs.agreement else { return false }
        guard agreement == .differs, let left = lhs.mirrors, let right = rhs.mirrors else { return true }
        return SpecCollectionRead.equal(left, right)
    }

    public var description: String {
        let main = reads.isEmpty ? "ok" : reads.map(\.description).joined(separator: " ")
        guard let mirrors, mirrors != reads else { return main }
        return main + " | mirror " + mirrors.map(\.description).joined(separator: " ")
    }

    // MARK: Parts

    /// The part that says whether the mirrors read like the reads.
    public static let mirrorLabel = "mirror"

    /// The part of array `name` that lists its items (by identity, whatever their order).
    public static func itemsLabel(_ name: String) -> String { name + " items" }
    /// The part of array `name` that lists its items' quantities.
    public static func quantitiesLabel(_ name: String) -> String { name + " quantities" }
    /// The part of array `name` that lists its items in read order.
    public static func orderLabel(_ name: String) -> String { name + " order" }
}

extension SyncObservation: ObservationParts {
    /// The mirrors' agreement; then each array's items, then each array's quantities (glass items), then each array's
    /// order. An order the prediction leaves open differs only in an order part, so a difference in items or
    /// quantities is always met first.
    public var parts: [(label: String, value: String)] {
        var agreement = "none"
        switch self.agreement {
        case .noMirror: break
        case .agrees: agreement = "agrees"
        case .differs: agreement = (mirrors ?? []).map(\.description).joined(separator: " ")
        }
        func ids(_ items: [SpecItemRead]) -> String { items.map { "v\($0.item + 1)" }.joined(separator: " ") }
        func byIdentity(_ read: SpecCollectionRead) -> [SpecItemRead] { read.items.sorted { $0.item < $1.item } }
        return [(Self.mirrorLabel, agreement)]
            + reads.map { (Self.itemsLabel($0.name), byIdentity($0).map { "v\($0.item + 1)#\($0.code)" }.joined(separator: " ")) }
            + reads.filter(\.collection.hasQuantity).map { read in
                (Self.quantitiesLabel(read.name), byIdentity(read).map { "v\($0.item + 1)×\($0.quantity)" }.joined(separator: " "))
            }
            + reads.map { (Self.orderLabel($0.name), ids($0.items)) }
    }

    /// Provenance of a predicted array's items: the rule that last changed whether its first item (by identity) that
    /// only one of the prediction and `observed` holds is there.
    public func rule(ofPart label: String, observed: SyncObservation) -> String? {
        func items(_ reads: [SpecCollectionRead]) -> (device: Int, items: [Int32])? {
            reads.first { Self.itemsLabel($0.name) == label }.map { (Int($0.device), $0.items.map(\.item)) }
        }
        guard let presence, let array = items(reads) ?? items(observed.reads) else { return nil }
        let predicted = items(reads)?.items ?? [], seen = items(observed.reads)?.items ?? []
        let differing = (predicted.filter { !seen.contains($0) } + seen.filter { !predicted.contains($0) }).min()
        return differing.map { presence[array.device][Int($0)] }
    }
}
