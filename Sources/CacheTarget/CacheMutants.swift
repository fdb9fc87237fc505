#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import PersistentCache

extension CacheMachine {
    /// The `cache` target's mutants: each selects production faults (FaultPoints), one entry per mutant; its Swift
    /// source (for exported tests) is derived.
    package static let mutants = MutantTable(shipped: CacheStrategy.shipped, [
        Mutant(name: "seed-torn-write", rule: "C5",
               summary: "writes entries in place, as the seed does: a torn write leaves a prefix where the previous value was"):
            [.inPlaceWrite],
        Mutant(name: "seed-description-keys", rule: "C2",
               summary: "keys entries by the key's description alone, as the seed does: two keys with equal descriptions share a value"):
            [.descriptionOnlyKeys],
        Mutant(name: "seed-separate-memory", rule: "C1",
               summary: "each instance keeps its own memory tier, as the seed does: one returns its stale value after another instance wrote"):
            [.perInstanceMemory],
        Mutant(name: "keep-corrupt-file", rule: "C6", summary: "a file that fails its checksum is reported as a miss but left on disk"):
            [.keepCorruptFiles],
        Mutant(name: "cleanup-deletes-fresh", rule: "C9", summary: "cleanup deletes every file, fresh entries included"):
            [.cleanupDeletesEverything],
        Mutant(name: "contains-reads-disk", rule: "C7", summary: "contains falls back to the disk when memory misses"):
            [.containsReadsDisk],
        Mutant(name: "cache-reentrant-read", rules: ["C10", "C1", "C3", "C9", "C2"],
               summary: "the actor awaits a memory miss's disk read, as the seed does, and acts on what it read after sets that ran meanwhile",
               reason: "a get is not atomic (C10): it promotes the older value it read over a concurrent set's, which a later read returns (C1), "
                   + "or deletes the file it read as expired or corrupt after a concurrent set replaced it; the lost file shows where a later "
                   + "step observes it: a read (C3), a cleanup's folder (C9), the folder after a set of another key (C2)"):
            [.reentrantRead],
    ])
}

extension Target {
    /// The persistent cache: a `MemoryCache` over a disk folder, under faults.
    public static var cache: Target {
        Target(name: "cache",
               summary: "PersistentCache: memory and disk tiers, several instances, expiry, cleanup and injected disk faults",
               rules: CacheRulesExport.rules, mutants: CacheMachine.mutants, defaultSteps: 30, generatorVersion: "3") { strategy, scratchFolder in
            CacheMachine(strategy: strategy, temporaryDirectory: scratchFolder ?? ScratchFolder.temporaryDirectory)
        }
    }
}
