package import FaultPoints

extension SyncWorld {
    /// Creates a project of `kind` on a device (pushed later).
    public mutating func createProject(on device: Int, kind: ProjectKind) throws(SyncError) -> RecordID {
        try check(device)
        let id = devices[device].newID()
        let blobs: [[BlobEntry]] = writesBlobs ? kind.collections.map { _ in [] } : []
        var dirty = FieldMask.identity
        for slot in blobs.indices { dirty |= FieldMask.blob(slot) }
        devices[device].insert(LocalProject(id: id, kind: kind, blobs: blobs, dirty: dirty))
        try devices[device].save()
        return id
    }

    /// Adds an item with catalogue `code` at the end of a project's array.
    public mutating func addItem(on device: Int, project: RecordID, _ collection: ProjectCollection,
                                 code: Int) throws(SyncError) -> RecordID {
        let p = try projectSlot(device, project)
        let kind = devices[device].projects[p].kind
        guard let slot = kind.slot(of: collection) else { throw SyncError.collectionNotOnModel(collection, kind) }
        let id = devices[device].newID()
        let notes = collection.hasQuantity ? "sheet \(code)" : ""
        if usesEntities {
            let order = devices[device].entityOrder(of: project, collection)
            let last = order.last.map { devices[device].items[$0].position }
            let gap = midpointPositions ? PositionSpacing.step : PositionSpacing.step * (0.5 + PositionSpacing.share(of: id, beside: last ?? 0))
            // The first item of an array goes a gap after 0, not at 0: two devices adding the first item concurrently
            // would tie there (seed 001 put it at 0, as the fault does).
            let position = last.map { $0 + gap } ?? (midpointPositions ? 0 : gap)
            devices[device].insert(LocalItem(
                id: id, owner: project, ownerKind: kind, collection: collection, code: code,
                quantity: collection.initialQuantity, position: collection.isOrdered ? position : 0, notes: notes,
                dirty: FieldMask.allItemFields, state: .present))
        }
        if writesBlobs {
            devices[device].withProject(at: p) {
                $0.blobs[slot].append(BlobEntry(id: id, code: code, quantity: collection.initialQuantity, notes: notes))
                $0.dirty |= FieldMask.blob(slot)
            }
        }
        try devices[device].save()
        return id
    }

    /// Removes an item.
    public mutating func removeItem(on device: Int, item: RecordID) throws(SyncError) {
        let target = try locate(device, item)
        if let i = target.entity {
            devices[device].withItem(at: i) {
                $0.state = .deletedPending
                $0.dirty |= FieldMask.deletion
            }
        }
        if let (p, slot, e) = target.blob {
            devices[device].withProject(at: p) {
                $0.blobs[slot].remove(at: e)
                $0.dirty |= FieldMask.blob(slot)
            }
        }
        try devices[device].save()
    }

    /// Moves an item of an ordered array to `index` among the other items.
    public mutating func moveItem(on device: Int, item: RecordID, to index: Int) throws(SyncError) {
        let target = try locate(device, item)
        guard target.collection.isOrdered else { throw SyncError.notOrdered(target.collection) }
        if let i = target.entity {
            let store = devices[device]
            let others = store.entityOrder(of: target.project, target.collection).filter { $0 != i }
            guard index >= 0, index <= others.count else { throw SyncError.positionOutOfRange(index, count: others.count) }
            var position: Double?
            // The position the item goes beside: the neighbour before it (the first item for a move to the front).
            let anchor = others.isEmpty ? 0 : store.items[others[index == 0 ? 0 : index - 1]].position
            let share = PositionSpacing.share(of: item, beside: anchor)
            let gap = midpointPositions ? PositionSpacing.step : PositionSpacing.step * (0.5 + share)
            if others.isEmpty {
                position = midpointPositions ? 0 : gap
            } else if index == 0 {
                position = anchor - gap
            } else if index == others.count {
                position = anchor + gap
            } else {
                let before = anchor, after = store.items[others[index]].position
                let between = midpointPositions ? (before + after) / 2 : before + (after - before) * share
                // Equal neighbours (not made by placements, which never tie, except under the fault) or exhausted
                // precision: renumber.
                if before < between && between < after { position = between }
            }
            if let position {
                devices[device].withItem(at: i) {
                    $0.position = position
                    $0.dirty |= FieldMask.position
                }
            } else {
                var order = others
                order.insert(i, at: index)
                for (n, row) in order.enumerated() where devices[device].items[row].position != Double(n) * PositionSpacing.step {
                    devices[device].withItem(at: row) {
                        $0.position = Double(n) * PositionSpacing.step
                        $0.dirty |= FieldMask.position
                    }
                }
            }
        }
        if let (p, slot, e) = target.blob {
            let count = devices[device].projects[p].blobs[slot].count - 1
            guard index >= 0, index <= count else { throw SyncError.positionOutOfRange(index, count: count) }
            devices[device].withProject(at: p) {
                let entry = $0.blobs[slot].remove(at: e)
                $0.blobs[slot].insert(entry, at: index)
                $0.dirty |= FieldMask.blob(slot)
            }
        }
        try devices[device].save()
    }

    /// Sets the quantity of a glass item.
    public mutating func setQuantity(on device: Int, item: RecordID, _ quantity: Int) throws(SyncError) {
        let target = try locate(device, item)
        guard target.collection.hasQuantity else { throw SyncError.noQuantity(target.collection) }
        let entityPath = target.blob == nil || !strategy.contains(.quantityWritesBlobOnly)
        if let i = target.entity, entityPath {
            devices[device].withItem(at: i) {
                $0.quantity = quantity
                $0.dirty |= FieldMask.quantity
            }
        }
        if let (p, slot, e) = target.blob {
            devices[device].withProject(at: p) {
                $0.blobs[slot][e].quantity = quantity
                $0.dirty |= FieldMask.blob(slot)
            }
        }
        try devices[device].save()
    }

    /// Where an item lives on a device: its entity row and/or its blob entry.
    struct ItemLocation {
        var project: RecordID
        var collection: ProjectCollection
        var entity: Int?
        var blob: (project: Int, slot: Int, entry: Int)?
    }

    func locate(_ device: Int, _ item: RecordID) throws(SyncError) -> ItemLocation {
        try check(device)
        let store = devices[device]
        var location: ItemLocation?
        if usesEntities {
            guard let i = store.itemSlot(item), store.items[i].state == .present else {
                throw SyncError.unknownItem(item, device: device)
            }
            location = ItemLocation(project: store.items[i].owner, collection: store.items[i].collection, entity: i)
        }
        if writesBlobs {
            if let found = findBlobEntry(store, item, near: location?.project) {
                if location == nil {
                    let kind = store.projects[found.project].kind
                    location = ItemLocation(project: store.projects[found.project].id, collection: kind.collections[found.slot])
                }
                location!.blob = found
            }
        }
        guard let location else { throw SyncError.unknownItem(item, device: device) }
        return location
    }

    private func findBlobEntry(_ store: DeviceStore, _ item: RecordID, near project: RecordID?) -> (project: Int, slot: Int, entry: Int)? {
        let candidates = project.flatMap { store.projectSlot($0) }.map { [$0] } ?? Array(store.projects.indices)
        for p in candidates {
            for (slot, entries) in store.projects[p].blobs.enumerated() {
                if let e = entries.firstIndex(where: { $0.id == item }) { return (p, slot, e) }
            }
        }
        return nil
    }
}

extension Fault<SyncWorld> {
    /// Mutant `midpoint-positions`, the placement seed 001 describes: an append goes one fixed
    /// step after the last item and a move to the exact midpoint of its neighbours, so two devices appending
    /// concurrently tie, and a later move between the tied items renumbers the array, pushing rows the user never
    /// edited; shipped: a share of the gap drawn from the item's identity and its anchor (`PositionSpacing.share(of:beside:)`).
    package static var midpointPositions: Self { Self() }

    /// Mutant `dual-write-misses-entities`: during dual-write the quantity edit path writes the blob only.
    package static var quantityWritesBlobOnly: Self { Self() }
}

extension SyncWorld {
    /// Whether placements use the seed's fixed step and exact midpoint (mutant `midpoint-positions`).
    var midpointPositions: Bool { strategy.contains(.midpointPositions) }
}
