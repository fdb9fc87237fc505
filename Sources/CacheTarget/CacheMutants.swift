import Foundation
import GraphFuzzEngine
import PersistentCache

/// The `cache` target's mutants: each selects production faults (FaultPoints). One entry per mutant: its
/// name, rules and summary, and the faults it selects; its Swift source (for exported tests) is derived.
public enum CacheMutants {
    package struct Entry: Sendable {
        package var mutant: Mutant
        package var strategy: CacheStrategy
    }

    package static let entries: [Entry] = [
        Entry(mutant: Mutant(name: "seed-torn-write", rule: "C5",
                             summary: "writes entries in place, as the seed does: a torn write leaves a prefix where the previous value was"),
              strategy: [.inPlaceWrite]),
        Entry(mutant: Mutant(name: "seed-description-keys", rule: "C2",
                             summary: "keys entries by the key's description alone, as the seed does: two keys with equal descriptions share a value"),
              strategy: [.descriptionOnlyKeys]),
        Entry(mutant: Mutant(name: "seed-separate-memory", rule: "C1",
                             summary: "each instance keeps its own memory tier, as the seed does: one returns its stale value after another instance wrote"),
              strategy: [.perInstanceMemory]),
        Entry(mutant: Mutant(name: "keep-corrupt-file", rule: "C6", summary: "a file that fails its checksum is reported as a miss but left on disk"),
              strategy: [.keepCorruptFiles]),
        Entry(mutant: Mutant(name: "cleanup-deletes-fresh", rule: "C9", summary: "cleanup deletes every file, fresh entries included"),
              strategy: [.cleanupDeletesEverything]),
        Entry(mutant: Mutant(name: "contains-reads-disk", rule: "C7", summary: "contains falls back to the disk when memory misses"),
              strategy: [.containsReadsDisk]),
    ]

    public static var all: [Mutant] { entries.map(\.mutant) }

    /// The strategy of `mutant` as Swift source (`CacheStrategy.shipped`, `CacheStrategy(.inPlaceWrite)`).
    public static func strategyLiteral(for mutant: String?) -> String { strategy(for: mutant).swiftLiteral("CacheStrategy") }

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
               rules: CacheRulesExport.rules, mutants: CacheMutants.all, defaultSteps: 30, generatorVersion: "2") { mutant, scratchFolder in
            CacheMachine(mutant: mutant, temporaryDirectory: scratchFolder ?? NSTemporaryDirectory())
        }
    }
}
