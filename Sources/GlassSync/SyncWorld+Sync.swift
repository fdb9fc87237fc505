package import FaultPoints

extension SyncWorld {
    /// Sends every unpushed record of a device to the server, in identity order.
    @discardableResult
    public mutating func push(_ device: Int) throws(SyncError) -> TransferReport {
        try check(device)
        var outgoing: [(id: RecordID, project: Int?, item: Int?)] = []
        for (p, project) in devices[device].projects.enumerated() where project.dirty != 0 {
            outgoing.append((project.id, p, nil))
        }
        for (i, item) in devices[device].items.enumerated() where item.dirty != 0 && item.state != .gone && item.state != .waiting {
            outgoing.append((item.id, nil, i))
        }
        outgoing.sort { $0.id < $1.id }
        var report = TransferReport()
        for change in outgoing {
            if let p = change.project {
                let project = devices[device].projects[p]
                let blobs: [[UInt8]?] = project.blobs.enumerated().map { slot, entries in
                    BlobCodec.encode(entries, project.kind.collections[slot])
                }
                let record = CloudRecord(id: project.id, type: .project(project.kind), tag: 0, blobs: blobs)
                let fields = granularity == .record ? FieldMask.allProjectFields : project.dirty
                report.records += 1
                report.bytes += record.wireSize(fields: fields)
                _ = server.save(record, fields: fields, granularity: granularity)
                devices[device].withProject(at: p) { $0.dirty = 0 }
            } else if let i = change.item {
                let item = devices[device].items[i]
                var record = CloudRecord(id: item.id, type: .item(item.ownerKind, item.collection), tag: 0,
                                         owner: item.owner, code: item.code, quantity: item.quantity,
                                         position: item.position, notes: item.notes)
                record.deleted = item.state == .deletedPending
                var fields = granularity == .record || record.deleted ? FieldMask.allItemFields : item.dirty & FieldMask.allItemFields
                if item.dirty == FieldMask.migrated || server.indexOf(item.id) == nil { fields = FieldMask.allItemFields }
                report.records += 1
                report.bytes += record.wireSize(fields: fields)
                let result = server.save(record, fields: fields, granularity: granularity,
                                         onlyIfAbsent: item.dirty == FieldMask.migrated)
                devices[device].withItem(at: i) {
                    $0.dirty = 0
                    if record.deleted || result == .refusedDeleted { $0.state = .gone }
                }
                if result == .refusedDeleted { rebuildBlobs(device, item.owner) }
            }
        }
        transfers[device].pushed.records += report.records
        transfers[device].pushed.bytes += report.bytes
        try devices[device].save()
        return report
    }

    /// One full sync round: every device pushes, then every device fetches everything, in device
    /// order. Afterwards every device holds the server's state (the rollout point of phase 1).
    public mutating func settle() throws(SyncError) {
        for device in devices.indices { try push(device) }
        for device in devices.indices { try fetch(device) }
    }

    /// Applies changed records from the server to a device.
    @discardableResult
    public mutating func fetch(_ device: Int, _ delivery: Delivery = .all) throws(SyncError) -> TransferReport {
        try check(device)
        let store = devices[device]
        let pending = server.pending { store.knownTag($0) }
        var chosen: [Int]
        switch delivery {
        case .all:
            chosen = pending
        case .records(let ids):
            chosen = []
            for id in ids {
                if let i = server.indexOf(id), pending.contains(i), !chosen.contains(i) { chosen.append(i) }
            }
        }
        var report = TransferReport()
        var touched: [RecordID] = []
        for i in chosen {
            let record = server.recordAt(i)
            devices[device].setKnownTag(record.id, record.tag)
            report.records += 1
            report.bytes += record.wireSize(fields: FieldMask.all)
            switch record.type {
            case .project(let kind): try applyProject(record, kind, device, &touched)
            case .item: applyItem(record, device, &touched)
            }
        }
        for project in touched { rebuildBlobs(device, project) }
        transfers[device].fetched.records += report.records
        transfers[device].fetched.bytes += report.bytes
        try devices[device].save()
        return report
    }

    private mutating func applyProject(_ record: CloudRecord, _ kind: ProjectKind, _ device: Int,
                                       _ touched: inout [RecordID]) throws(SyncError) {
        guard let p = devices[device].projectSlot(record.id) else {
            var blobs: [[BlobEntry]] = []
            if writesBlobs {
                for (slot, collection) in kind.collections.enumerated() {
                    let bytes = slot < record.blobs.count ? record.blobs[slot] : nil
                    blobs.append(usesEntities ? [] : try bytes.map { bytes throws(SyncError) in try BlobCodec.decode(bytes, collection) } ?? [])
                }
            }
            devices[device].insert(LocalProject(id: record.id, kind: kind, blobs: blobs))
            if usesEntities {
                for (i, item) in devices[device].items.enumerated() where item.state == .waiting && item.owner == record.id {
                    devices[device].withItem(at: i) { $0.state = .present }
                }
                touched.append(record.id)
            }
            return
        }
        if usesEntities {
            if !touched.contains(record.id) { touched.append(record.id) }
            return
        }
        let local = devices[device].projects[p]
        var blobs = local.blobs
        for (slot, collection) in kind.collections.enumerated() where slot < blobs.count {
            let keepLocal = granularity == .record ? local.dirty != 0 : local.dirty & FieldMask.blob(slot) != 0
            if keepLocal { continue }
            let bytes = slot < record.blobs.count ? record.blobs[slot] : nil
            blobs[slot] = try bytes.map { bytes throws(SyncError) in try BlobCodec.decode(bytes, collection) } ?? []
        }
        devices[device].withProject(at: p) { $0.blobs = blobs }
    }

    private mutating func applyItem(_ record: CloudRecord, _ device: Int, _ touched: inout [RecordID]) {
        guard usesEntities, case .item(let kind, let collection) = record.type else { return }
        if let i = devices[device].itemSlot(record.id) {
            let granularity = self.granularity
            let changed: Bool = devices[device].withItem(at: i) { item in
                switch item.state {
                case .gone, .deletedPending:
                    return false
                case .waiting, .present:
                    if record.deleted {
                        item.state = .gone
                        item.dirty = 0
                        return true
                    }
                    let edits = item.dirty & ~FieldMask.migrated
                    if granularity == .record {
                        if edits == 0 {
                            item.quantity = record.quantity
                            item.position = record.position
                        }
                    } else {
                        if edits & (FieldMask.identity | FieldMask.quantity) == 0 { item.quantity = record.quantity }
                        if edits & (FieldMask.identity | FieldMask.position) == 0 { item.position = record.position }
                    }
                    return item.state == .present
                }
            }
            if changed && !touched.contains(record.owner) { touched.append(record.owner) }
            return
        }
        if record.deleted { return }
        let parentKnown = devices[device].projectSlot(record.owner) != nil
        if !parentKnown && strategy.contains(.dropOrphans) { return }
        devices[device].insert(LocalItem(
            id: record.id, owner: record.owner, ownerKind: kind, collection: collection, code: record.code,
            quantity: record.quantity, position: record.position, notes: record.notes, dirty: 0,
            state: parentKnown ? .present : .waiting))
        if parentKnown && !touched.contains(record.owner) { touched.append(record.owner) }
    }

    /// During dual-write the blobs follow the entities after a fetch: the entities are what sync merges.
    mutating func rebuildBlobs(_ device: Int, _ project: RecordID) {
        guard usesEntities, writesBlobs, let p = devices[device].projectSlot(project) else { return }
        let items = devices[device].items
        var blobs: [[BlobEntry]] = []
        for collection in devices[device].projects[p].kind.collections {
            blobs.append(DeviceStore.entityOrder(items, of: project, collection) {
                BlobEntry(id: items[$0].id, code: items[$0].code, quantity: items[$0].quantity, notes: items[$0].notes)
            })
        }
        devices[device].withProject(at: p) { $0.blobs = blobs }
    }
}

extension Fault<SyncWorld> {
    /// Mutant `link-before-parent`: a fetched relationship record whose parent has not arrived is dropped
    /// (shipped: kept, persisted, until the parent arrives; R31).
    package static var dropOrphans: Self { Self() }
}
