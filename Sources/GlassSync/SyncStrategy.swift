/// How CloudKit-style last-writer-wins treats concurrent saves of one record (R30: the
/// granularity is undocumented, so both are supported and fuzzed).
public enum ConflictGranularity: String, Sendable, CaseIterable {
    /// The last push replaces the whole record.
    case record
    /// The last push replaces only the fields it changed.
    case field
}

/// Strategy points of the production code. `.production` is the design the seed proposes; every
/// other value is a documented faulty variant that a mutant selects.
package struct SyncStrategy: Sendable, Equatable {
    /// Where arrays live.
    package enum Storage: Sendable, Equatable {
        /// The seed's proposal: relationship entities, migrated in three phases.
        case entities
        /// The seed's current design: transformable blobs in every phase (phase changes do nothing).
        case blobsOnly
    }

    /// Which edit paths write the entities during dual-write.
    package enum DualWrite: Sendable, Equatable {
        case allPaths
        /// The quantity edit path writes the blob only.
        case quantityWritesBlobOnly
    }

    /// How the phase-1 migration numbers positions.
    package enum MigrationOrder: Sendable, Equatable {
        /// Positions follow the blob's array order.
        case arrayOrder
        /// Entries go through a set sorted by catalogue code first, losing the user's order.
        case sortedByCode
    }

    /// What a fetch does with a relationship record whose parent has not arrived (R31).
    package enum Orphans: Sendable, Equatable {
        /// Keep it (persisted) until the parent arrives.
        case waitForParent
        /// Drop it.
        case drop
    }

    /// Where arrays live (`blob-storage` selects `.blobsOnly`).
    package var storage: Storage
    /// Which edit paths write the entities (`dual-write-misses-entities`).
    package var dualWrite: DualWrite
    /// How phase 1 numbers positions (`migration-loses-order`).
    package var migrationOrder: MigrationOrder
    /// What happens to a row fetched before its project (`link-before-parent`).
    package var orphans: Orphans

    package init(storage: Storage = .entities, dualWrite: DualWrite = .allPaths,
                migrationOrder: MigrationOrder = .arrayOrder, orphans: Orphans = .waitForParent) {
        self.storage = storage
        self.dualWrite = dualWrite
        self.migrationOrder = migrationOrder
        self.orphans = orphans
    }

    /// The design the seed proposes, without faults.
    package static let production = SyncStrategy()
}
