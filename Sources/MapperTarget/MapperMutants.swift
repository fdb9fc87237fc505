import BooksTracker
import GraphFuzzEngine
import MapperSpec

extension MapperMachine {
    /// The mapper's mutants: each a design from the seeds' history, selected through DTOMapper's faults.
    package static let mutants = MutantTable(shipped: MapperStrategy.shipped, [
        Mutant(name: "cache-stores-objects", rules: [MapperRules.noStaleRead, MapperRules.deletedYieldsFresh],
               summary: "seed 000 'before': the cache holds Work objects and returns them whatever became of them",
               reason: "the cached object is returned whatever became of it: a deleted or rolled-back work is returned (M10: every returned work is live) and read, which traps once its deletion is saved (M11); which shows first depends on whether the delete was saved"):
         [.cacheStoresObjects],
        Mutant(name: "cache-as-designed", rules: [MapperRules.noStaleRead, MapperRules.deletedYieldsFresh],
               summary: "seed 000 'after' literally: model(for:) trusted to return nil for a deleted work (R14: it never does)",
               reason: "model(for:) hands back the deleted work (R14), which is returned (M10) and read, trapping once its deletion is saved (M11)"):
         [.cacheTrustsModelFor],
        Mutant(name: "cache-keeps-temporary-ids", rule: MapperRules.knownVolumeReused,
               summary: "identifiers cached at insert and never re-keyed after save; one that no longer resolves is read as a deletion"):
         [.cacheKeepsTemporaryIdentifiers],
        Mutant(name: "cache-trusts-temporary-ids", rule: MapperRules.noStaleRead,
               summary: "an identifier cache kept across a relaunch that still trusts its temporary identifiers to model(for:) (G24: they never resolve)"):
         [.cacheTrustsTemporaryIdentifiers],
        Mutant(name: "forgot-cache-eviction", rule: MapperRules.noStaleRead,
               summary: "before seed 000: objects evicted by removeWorkFromCache at deletion sites; another context's deletion site forgets it"):
         [.cacheWithManualEviction],
        Mutant(name: "dedup-drops-singletons", rule: MapperRules.singletonKept,
               summary: "seed 002's deduplicateSyntheticWorks as printed: a synthetic work whose ISBN no other shares disappears"):
         [.dedupDropsSingletons],
        Mutant(name: "dedup-merges-missing-isbn", rule: MapperRules.missingISBNNotMerged,
               summary: "seed 002's grouping by isbn ?? \"\": synthetic works without ISBN are merged"):
         [.dedupMergesMissingISBN],
        Mutant(name: "editions-to-every-work", rule: MapperRules.ownEditions,
               summary: "seed 002's insertEditions(data.editions, …): every work gets every edition"):
         [.allEditionsToEveryWork],
        Mutant(name: "authors-to-every-work", rule: MapperRules.ownAuthors,
               summary: "seed 002's insertAuthors(data.authors, …): every work gets every author"):
         [.allAuthorsToEveryWork],
        Mutant(name: "genres-renormalized", rule: MapperRules.tagsPassThrough,
               summary: "the client normalises subject tags again (capitalised, sorted, without repeats)"):
         [.renormalizedTags],
        Mutant(name: "enrichment-duplicate-work", rules: [MapperRules.knownVolumeReused, MapperRules.deletedYieldsFresh],
               summary: "an enrichment checks for its volume IDs' works before awaiting the response and inserts new ones after it, whatever was mapped meanwhile",
               reason: "two enrichments of one volume ID each find no work, await, and insert one: no order of them explains the second new work, "
                   + "which the order that explains the most calls a duplicate (M9) or, when it lets the other enrichment make a work first, the wrong fresh one (M10)"):
         [.enrichmentDuplicateWork],
    ])
}

extension Target {
    /// DTOMapper against its specification: mapping rules M1–M8, the work cache M9–M11, the store M12.
    public static var mapper: Target {
        Target(
            name: "mapper",
            summary: "DTOMapper.mapToWorks against MapperSpec: dedup by ISBN, own editions and authors, tags and provider pass through, a volume-ID cache safe across saves, deletes, rollback and fresh contexts",
            rules: MapperRules.all, mutants: MapperMachine.mutants, defaultSteps: 30, generatorVersion: "4"
        ) { strategy, scratchFolder in MapperMachine(strategy: strategy, scratchFolder: scratchFolder) }
    }
}
