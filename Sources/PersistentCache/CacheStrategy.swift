/// The cache's strategy points: the shipped design, and the alternatives it replaced (the seed's
/// choices among them) so that a test harness can select a weaker variant as a mutant (`package` access:
/// only this package's targets can).
package struct CacheStrategy: Sendable, Equatable {
    /// How a value reaches its file.
    package enum WriteMode: String, Sendable {
        /// Write a temporary file, make it durable, rename it over the entry (shipped).
        case atomicRename
        /// Overwrite the entry's file in place, as the seed does: a torn write leaves a prefix.
        case inPlace
    }

    /// What distinguishes two keys.
    package enum KeyIdentity: String, Sendable {
        /// Memory by the key itself; disk by its type, description and stored structure (shipped).
        case typeAndStructure
        /// Both tiers by the key's description alone, as the seed does.
        case descriptionOnly
    }

    /// Which instances share a memory tier.
    package enum MemorySharing: String, Sendable {
        /// Every instance of one identifier in one environment shares one tier (shipped).
        case perIdentifier
        /// Each instance has its own tier, as the seed does.
        case perInstance
    }

    /// What happens to a file that fails its checksum or does not decode.
    package enum CorruptFiles: String, Sendable {
        case delete
        case keep
    }

    /// Which files a cleanup removes.
    package enum CleanupSelection: String, Sendable {
        /// Expired entries and files no key names (shipped).
        case expiredAndStray
        /// Every file in the folder.
        case everything
    }

    /// Where `contains` looks.
    package enum ContainsLookup: String, Sendable {
        /// The memory tier only (shipped, as the seed).
        case memoryOnly
        /// The memory tier, then the disk.
        case memoryThenDisk
    }

    package var writeMode: WriteMode
    package var keyIdentity: KeyIdentity
    package var memorySharing: MemorySharing
    package var corruptFiles: CorruptFiles
    package var cleanupSelection: CleanupSelection
    package var containsLookup: ContainsLookup

    package init(writeMode: WriteMode = .atomicRename, keyIdentity: KeyIdentity = .typeAndStructure,
                memorySharing: MemorySharing = .perIdentifier, corruptFiles: CorruptFiles = .delete,
                cleanupSelection: CleanupSelection = .expiredAndStray, containsLookup: ContainsLookup = .memoryOnly) {
        self.writeMode = writeMode
        self.keyIdentity = keyIdentity
        self.memorySharing = memorySharing
        self.corruptFiles = corruptFiles
        self.cleanupSelection = cleanupSelection
        self.containsLookup = containsLookup
    }

    /// The shipped design.
    package static let shipped = CacheStrategy()
}
