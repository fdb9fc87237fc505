package import FaultPoints

extension SyncWorld {
    /// Moves every device to the next migration phase.
    ///
    /// 0 → 1 populates the entities from each device's blobs (the entry's identity becomes the record
    /// name, so two devices migrating the same item write the same record) and starts dual-write;
    /// 1 → 2 switches reads to the entities; 2 → 3 stops reading and writing the blob attributes
    /// (the server keeps the fields: a CloudKit production schema is additive-only, R24).
    /// With the blob-only design the phase advances but nothing changes.
    public mutating func advancePhase() throws(SyncError) {
        guard let next = MigrationPhase(rawValue: phase.rawValue + 1) else {
            throw SyncError.phaseTransition(from: phase, "phase 3 is the last")
        }
        if !strategy.contains(.blobsOnlyStorage) {
            switch next {
            case .dualWrite: populateEntities()
            case .entitiesOnly:
                for d in devices.indices {
                    for p in devices[d].projects.indices {
                        devices[d].withProject(at: p) {
                            $0.blobs = []
                            $0.dirty &= FieldMask.identity
                        }
                    }
                }
            case .blobsOnly, .entityReads: break
            }
        }
        phase = next
        for d in devices.indices { try devices[d].save() }
    }

    /// Rolls the next phase out to every device. Phase 1 is rolled out to synced devices (one
    /// `settle()` round first), so every device populates its entities from the same blobs.
    public mutating func rollOutNextPhase() throws(SyncError) {
        if phase == .blobsOnly { try settle() }
        try advancePhase()
    }

    /// Rolls reads back from the entities to the blobs (phase 2 → phase 1); dual-write continues.
    public mutating func rollbackReads() throws(SyncError) {
        guard phase == .entityReads else { throw SyncError.phaseTransition(from: phase, "reads roll back only from phase 2") }
        phase = .dualWrite
    }

    private mutating func populateEntities() {
        for d in devices.indices {
            for project in devices[d].projects {
                for (slot, collection) in project.kind.collections.enumerated() where slot < project.blobs.count {
                    var entries = project.blobs[slot]
                    if strategy.contains(.migrationSortsByCode) {
                        entries.sort { ($0.code, $0.id) < ($1.code, $1.id) }
                    }
                    for (n, entry) in entries.enumerated() where devices[d].itemSlot(entry.id) == nil {
                        devices[d].insert(LocalItem(
                            id: entry.id, owner: project.id, ownerKind: project.kind, collection: collection,
                            code: entry.code, quantity: entry.quantity,
                            position: collection.isOrdered ? Double(n) * PositionSpacing.step : 0,
                            notes: entry.notes, dirty: FieldMask.migrated, state: .present))
                    }
                }
            }
        }
    }
}

extension Fault<SyncWorld> {
    /// Mutant `migration-loses-order`: phase 1 passes each array through a set sorted by catalogue code first,
    /// numbering positions in code order instead of the user's order.
    package static var migrationSortsByCode: Self { Self() }
}
