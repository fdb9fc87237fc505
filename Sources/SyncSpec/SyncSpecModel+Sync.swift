extension SyncSpecModel {
    /// Pushes a device's unpushed records in identity order (R30). Which items its arrays hold changes by nothing but a
    /// refused save (S5): each item is its own record (S4).
    public mutating func push(_ device: Int) {
        decideItems(device, by: SyncRules.concurrentAdditionsSurvive)
        var outgoing: [Int] = []
        for (i, local) in locals[device].enumerated()
        where !local.unpushed.isEmpty && (local.state == .present || local.state == .deletedPending) {
            outgoing.append(i)
        }
        outgoing.sort { objects[$0].sortKey < objects[$1].sortKey }
        for i in outgoing {
            if objects[i].isProject { pushProject(device, i) } else { pushItem(device, i) }
            locals[device][i].unpushed = []
        }
    }

    private mutating func pushProject(_ device: Int, _ p: Int) {
        let kind = objects[p].kind
        let unpushed = locals[device][p].unpushed
        let replace = granularity == .record || unpushed.contains(.created) || !server[p].exists
        if phase == 0 {
            // The record's blobs are rewritten in place (a local copy written back would copy the list each push).
            while server[p].blobs.count < kind.collections.count { server[p].blobs.append([]) }
            for (slot, collection) in kind.collections.enumerated() where replace || unpushed.contains(.blob(collection)) {
                server[p].blobs[slot] = read(device, p, collection).items
            }
        }
        server[p].exists = true
        server[p].tag = nextTag
        nextTag += 1
    }

    private mutating func pushItem(_ device: Int, _ i: Int) {
        let local = locals[device][i]
        if local.unpushed == .migrated {
            // A migrated row: saved only if the server has none yet (not even a deletion); otherwise
            // the next fetch brings the server's version.
            if server[i].exists { return }
            server[i].quantity = local.quantity
            server[i].placement = local.placement
        } else if server[i].exists && server[i].deleted {
            // S5: the server refuses a save of a record it holds as deleted, and the device drops the item.
            setState(device, i, .gone, by: SyncRules.deletionWins)
            return
        } else if local.state == .deletedPending {
            server[i].deleted = true
            locals[device][i].state = .gone
        } else if !server[i].exists || granularity == .record || local.unpushed.contains(.created) {
            server[i].quantity = local.quantity
            server[i].placement = local.placement
        } else {
            if local.unpushed.contains(.quantity) { server[i].quantity = local.quantity }
            if local.unpushed.contains(.placement) { server[i].placement = local.placement }
        }
        server[i].exists = true
        server[i].tag = nextTag
        nextTag += 1
    }

    /// One full sync round: every device pushes, then every device fetches everything.
    public mutating func settle() {
        for device in locals.indices { push(device) }
        for device in locals.indices { fetch(device, deliver: nil) }
    }

    /// Delivers pending records to a device: all in change order (`deliver == nil`) or exactly
    /// `deliver` in that order (out of order and partial, R31). It merges them into every array (S4; phase 0's blob,
    /// S8), but where a deletion wins over the device's edits (S5) or items wait for their project (S7).
    public mutating func fetch(_ device: Int, deliver: [Int]?) {
        decideItems(device, by: phase == 0 ? SyncRules.blobLosesUpdate : SyncRules.concurrentAdditionsSurvive)
        let chosen = deliver ?? pending(device)
        for i in chosen {
            locals[device][i].known = server[i].tag
            if objects[i].isProject { fetchProject(device, i) } else { fetchItem(device, i) }
        }
    }

    private mutating func fetchProject(_ device: Int, _ p: Int) {
        let known = locals[device][p].state == .present
        let kind = objects[p].kind
        if !known {
            locals[device][p].state = .present
            locals[device][p].unpushed = []
        }
        if phase >= 1 {
            guard !known else { return }
            // The project's items are those of its arrays (see `members`); the order does not matter here. S7: an item
            // that waited for its project appears with it.
            for collection in SpecCollection.allCases {
                for i in items(p, collection) where locals[device][i].state == .waiting { setState(device, i, .present, by: SyncRules.orphanWaits) }
            }
            return
        }
        let unpushed = locals[device][p].unpushed
        for (slot, collection) in kind.collections.enumerated() {
            let keep = known && (granularity == .record ? !unpushed.isEmpty : unpushed.contains(.blob(collection)))
            if keep { continue }
            for i in order(device, p, collection) { locals[device][i].state = .absent }
            let snapshot = slot < server[p].blobs.count ? server[p].blobs[slot] : []
            for entry in snapshot {
                locals[device][Int(entry.item)].state = .present
                locals[device][Int(entry.item)].quantity = Int(entry.quantity)
            }
            // The blob is the order: every pair of its entries is decided.
            if collection.isOrdered { placeInOrder(device, snapshot.map { Int($0.item) }, as: snapshot.map { _ in newPlacement() }) }
        }
    }

    private mutating func fetchItem(_ device: Int, _ i: Int) {
        let record = server[i]
        var local = locals[device][i]
        switch local.state {
        case .gone, .deletedPending:
            return
        case .waiting, .present:
            if record.deleted {
                // S5: a fetched deletion removes the item even where it has unpushed edits.
                if local.state == .present && !local.unpushed.edits.isEmpty { presence[device][i] = SyncRules.deletionWins }
                local.state = .gone
                local.unpushed = []
            } else {
                // S6: a fetch never overwrites unpushed local changes.
                let edits = local.unpushed.edits
                let takeQuantity = granularity == .record ? edits.isEmpty : edits.isDisjoint(with: [.created, .quantity])
                let takePlacement = granularity == .record ? edits.isEmpty : edits.isDisjoint(with: [.created, .placement])
                if takeQuantity { local.quantity = record.quantity }
                if takePlacement { local.placement = record.placement }
            }
        case .absent:
            if record.deleted { return }
            local.quantity = record.quantity
            local.placement = record.placement
            local.unpushed = []
            if locals[device][Int(objects[i].owner)].state == .present {
                local.state = .present
            } else {
                // S7: an item whose project has not arrived waits for it.
                local.state = .waiting
                presence[device][i] = SyncRules.orphanWaits
            }
        }
        locals[device][i] = local
    }
}

extension SyncSpecModel {
    /// Moves every device to the next phase (S2). 0 → 1 places each ordered array's entity rows in read
    /// order (an item's placement at a slot is alike on every device) and marks the new rows as migrated (pushed
    /// only if the server has
    /// no such record yet); 2 → 3 drops unpushed blob changes.
    public mutating func advancePhase() {
        precondition(phase < 3, "phase 3 is the last")
        phase += 1
        if phase == 1 {
            for d in locals.indices {
                for p in projects(on: d) {
                    for collection in objects[p].kind.collections {
                        let order = self.order(d, p, collection)
                        for i in order { locals[d][i].unpushed = .migrated }
                        if collection.isOrdered { placeInOrder(d, order, as: order.enumerated().map { migrationPlacement($1, slot: $0) }) }
                    }
                }
            }
        } else if phase == 3 {
            for d in locals.indices {
                for p in objects.indices where objects[p].isProject { locals[d][p].unpushed.formIntersection(.created) }
            }
        }
    }

    /// The placement a migration gives `item` at `slot`, the same on every device.
    private mutating func migrationPlacement(_ item: Int, slot: Int) -> Int {
        let key = UInt64(item) << 32 | UInt64(slot)
        if let placement = migrationPlacements[key] { return placement }
        let placement = newPlacement()
        migrationPlacements[key] = placement
        return placement
    }

    /// The next phase, rolled out to synced devices: before phase 1 every device syncs once.
    public mutating func rollOutNextPhase() {
        if phase == 0 { settle() }
        advancePhase()
    }

    /// Phase 2 → phase 1 reads (S3): every array is read from its blob again.
    public mutating func rollbackReads() {
        precondition(phase == 2, "reads roll back only from phase 2")
        phase = 1
    }
}
