/// Two placements the order rules relate: the item placed by `before` comes before the item placed by `after`.
struct PlacementPair: Hashable, Sendable {
    var before: Int
    var after: Int
}

/// The order of ordered arrays, stated without positions (rule S9 and the merge rule S4).
///
/// A *placement* is one act of putting an item in its array: an append, a move, a phase-1 migration, a phase-0
/// blob fetch. It travels with the item's record like any other field (last writer wins, S6). When a device
/// places an item it decides, for every other item it holds, whether the new placement comes before or after
/// that item's current placement: an append after all of them, a move to an index after those that come before
/// that index and before those that come from it on. Such a decision holds as long as both placements are the
/// items' current ones, wherever the two meet (the placed item keeps its place relative to an item that was not
/// re-placed since). Where two devices placed items concurrently, nothing relates those placements: the rules
/// leave their order open, and a read may show any order that keeps every decided pair.
extension SyncSpecModel {
    /// Whether the rules put item `a` before item `b` on a device: their current placements were related so.
    public func precedes(_ device: Int, _ a: Int, _ b: Int) -> Bool {
        Self.precedes(locals[device], placedBefore, a, b)
    }

    /// `precedes` over one device's row (closures below capture the row and the pairs, not the whole model).
    static func precedes(_ row: [SpecLocal], _ pairs: Set<PlacementPair>, _ a: Int, _ b: Int) -> Bool {
        let pa = row[a].placement, pb = row[b].placement
        return pa != 0 && pb != 0 && pairs.contains(PlacementPair(before: pa, after: pb))
    }

    /// The present items of an array on a device, by identity.
    func presentItems(_ device: Int, _ project: Int, _ collection: SpecCollection) -> [Int] {
        let row = locals[device], objects = self.objects
        return items(project, collection).filter { row[$0].state == .present }
            .sorted { objects[$0].sortKey < objects[$1].sortKey }
    }

    /// The items in read order: unordered arrays by identity; ordered arrays in an order that keeps every
    /// decided pair, taking among the items that may come next the one of least identity. `decided` tells
    /// whether that choice was the only one at every place (the rules decide the whole order).
    func arrange(_ device: Int, _ project: Int, _ collection: SpecCollection) -> (order: [Int], decided: Bool) {
        var rest = presentItems(device, project, collection)
        guard collection.isOrdered else { return (rest, true) }
        let row = locals[device], pairs = placedBefore
        var order: [Int] = []
        var decided = true
        while !rest.isEmpty {
            let free = rest.indices.filter { k in !rest.contains { Self.precedes(row, pairs, $0, rest[k]) } }
            if free.count != 1 { decided = false }
            order.append(rest.remove(at: free.first ?? 0))
        }
        return (order, decided)
    }

    /// The pairs the rules decide among the present items of an ordered array.
    func decidedPairs(_ device: Int, _ order: [Int]) -> [SpecPrecedence] {
        let row = locals[device], placed = placedBefore
        var pairs: [SpecPrecedence] = []
        for a in order {
            for b in order where Self.precedes(row, placed, a, b) { pairs.append(SpecPrecedence(before: Int32(a), after: Int32(b))) }
        }
        return pairs
    }

    /// A new placement of `item` on a device at `index` among the array's other present items (nil: after all
    /// of them). It comes after every item that precedes that index in every order the rules allow, and before
    /// every item that is at or after it in every such order; the other items keep their placements.
    mutating func place(_ device: Int, _ item: Int, at index: Int?) {
        let object = objects[item]
        let others = presentItems(device, Int(object.owner), object.collection).filter { $0 != item }
        let n = others.count, target = index ?? n
        // ahead[a][b]: the rules put others[a] before others[b], directly or through other items.
        var ahead = others.map { a in others.map { b in precedes(device, a, b) } }
        for k in 0..<n { for a in 0..<n where ahead[a][k] { for b in 0..<n where ahead[k][b] { ahead[a][b] = true } } }
        let placement = newPlacement()
        for (a, other) in others.enumerated() {
            let alwaysBefore = ahead.indices.filter { ahead[$0][a] }.count, alwaysAfter = ahead[a].filter { $0 }.count
            let latest = n - 1 - alwaysAfter, earliest = alwaysBefore
            if latest < target { relate(before: locals[device][other].placement, after: placement) }
            else if earliest >= target { relate(before: placement, after: locals[device][other].placement) }
        }
        locals[device][item].placement = placement
    }

    /// Places the items of one array in the given order with the given placements, every pair decided (a phase-0
    /// blob read, a migration).
    mutating func placeInOrder(_ device: Int, _ order: [Int], as placements: [Int]) {
        for a in placements.indices {
            for b in placements.indices where a < b { relate(before: placements[a], after: placements[b]) }
        }
        for (item, placement) in zip(order, placements) { locals[device][item].placement = placement }
    }

    mutating func newPlacement() -> Int {
        defer { nextPlacement += 1 }
        return nextPlacement
    }

    private mutating func relate(before: Int, after: Int) {
        placedBefore.insert(PlacementPair(before: before, after: after))
    }
}
