import GraphFuzzEngine
import PersistentCache

/// The `cache` target's mutants: each selects a production strategy point. One entry per mutant: its
/// name, rules and summary, and the strategy it selects; its Swift source (for exported tests) is derived.
public enum CacheMutants {
    struct Entry: Sendable {
        var mutant: Mutant
        var strategy: CacheStrategy
    }

    static let entries: [Entry] = [
        Entry(mutant: Mutant(name: "seed-torn-write", rule: "C5",
                             summary: "writes entries in place, as the seed does: a torn write leaves a prefix where the previous value was"),
              strategy: CacheStrategy(writeMode: .inPlace)),
        Entry(mutant: Mutant(name: "seed-description-keys", rule: "C2",
                             summary: "keys entries by the key's description alone, as the seed does: two keys with equal descriptions share a value"),
              strategy: CacheStrategy(keyIdentity: .descriptionOnly)),
        Entry(mutant: Mutant(name: "seed-separate-memory", rule: "C1",
                             summary: "each instance keeps its own memory tier, as the seed does: one returns its stale value after another instance wrote"),
              strategy: CacheStrategy(memorySharing: .perInstance)),
        Entry(mutant: Mutant(name: "keep-corrupt-file", rule: "C6", summary: "a file that fails its checksum is reported as a miss but left on disk"),
              strategy: CacheStrategy(corruptFiles: .keep)),
        Entry(mutant: Mutant(name: "cleanup-deletes-fresh", rule: "C9", summary: "cleanup deletes every file, fresh entries included"),
              strategy: CacheStrategy(cleanupSelection: .everything)),
        Entry(mutant: Mutant(name: "contains-reads-disk", rule: "C7", summary: "contains falls back to the disk when memory misses"),
              strategy: CacheStrategy(containsLookup: .memoryThenDisk)),
    ]

    public static var all: [Mutant] { entries.map(\.mutant) }

    /// The strategy of `mutant` as Swift source.
    /// Derived from the strategy: the points where it differs from the shipped design, as arguments.
    public static func strategyLiteral(for mutant: String?) -> String {
        let shipped = Mirror(reflecting: CacheStrategy.shipped).children.map { "\($0.value)" }
        let points = Mirror(reflecting: strategy(for: mutant)).children
        let changed = zip(points, shipped).filter { "\($0.0.value)" != $0.1 }.map { "\($0.0.label ?? ""): .\($0.0.value)" }
        return changed.isEmpty ? "CacheStrategy.shipped" : "CacheStrategy(\(changed.joined(separator: ", ")))"
    }

    /// The strategy a mutant selects (nil: the shipped design).
    package static func strategy(for mutant: String?) -> CacheStrategy {
        entries.first { $0.mutant.name == mutant }?.strategy ?? .shipped
    }
}

extension Target {
    /// The persistent cache (issue 5): a `MemoryCache` over a disk folder, under faults.
    public static var cache: Target {
        Target(name: "cache",
               summary: "PersistentCache: memory and disk tiers, several instances, expiry, cleanup and injected disk faults",
               rules: CacheRulesExport.rules, mutants: CacheMutants.all, defaultSteps: 30, generatorVersion: "2") { mutant in
            CacheMachine(mutant: mutant)
        }
    }
}
