import GraphFuzzEngine
import PersistentCache

/// The `cache` target's mutants: each selects a production strategy point.
public enum CacheMutants {
    public static let all: [Mutant] = [
        Mutant(name: "seed-torn-write", rule: "C5",
               summary: "writes entries in place, as the seed does: a torn write leaves a prefix where the previous value was"),
        Mutant(name: "seed-description-keys", rule: "C2",
               summary: "keys entries by the key's description alone, as the seed does: two keys with equal descriptions share a value"),
        Mutant(name: "seed-separate-memory", rule: "C1",
               summary: "each instance keeps its own memory tier, as the seed does: one returns its stale value after another instance wrote"),
        Mutant(name: "keep-corrupt-file", rule: "C6", summary: "a file that fails its checksum is reported as a miss but left on disk"),
        Mutant(name: "cleanup-deletes-fresh", rule: "C9", summary: "cleanup deletes every file, fresh entries included"),
        Mutant(name: "contains-reads-disk", rule: "C7", summary: "contains falls back to the disk when memory misses"),
    ]

    /// The strategy of `mutant` as Swift source.
    public static func strategyLiteral(for mutant: String?) -> String {
        switch mutant {
        case "seed-torn-write": return "CacheStrategy(writeMode: .inPlace)"
        case "seed-description-keys": return "CacheStrategy(keyIdentity: .descriptionOnly)"
        case "seed-separate-memory": return "CacheStrategy(memorySharing: .perInstance)"
        case "keep-corrupt-file": return "CacheStrategy(corruptFiles: .keep)"
        case "cleanup-deletes-fresh": return "CacheStrategy(cleanupSelection: .everything)"
        case "contains-reads-disk": return "CacheStrategy(containsLookup: .memoryThenDisk)"
        default: return "CacheStrategy.shipped"
        }
    }

    /// The strategy a mutant selects (nil: the shipped design).
    package static func strategy(for mutant: String?) -> CacheStrategy {
        var strategy = CacheStrategy.shipped
        switch mutant {
        case "seed-torn-write": strategy.writeMode = .inPlace
        case "seed-description-keys": strategy.keyIdentity = .descriptionOnly
        case "seed-separate-memory": strategy.memorySharing = .perInstance
        case "keep-corrupt-file": strategy.corruptFiles = .keep
        case "cleanup-deletes-fresh": strategy.cleanupSelection = .everything
        case "contains-reads-disk": strategy.containsLookup = .memoryThenDisk
        default: break
        }
        return strategy
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
