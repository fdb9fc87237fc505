import GraphFuzzEngine

/// The rules of the mapping specification. docs/spec/mapper.md lists the same ids.
public enum MapperRules {
    public static let nonSyntheticKept = "M1"
    public static let sharedISBNMerged = "M2"
    public static let singletonKept = "M3"
    public static let missingISBNNotMerged = "M4"
    public static let ownEditions = "M5"
    public static let ownAuthors = "M6"
    public static let tagsPassThrough = "M7"
    public static let providerKept = "M8"
    public static let knownVolumeReused = "M9"
    public static let deletedYieldsFresh = "M10"
    public static let noStaleRead = "M11"
    public static let storeMatches = "M12"
    public static let malformedInsertsNothing = "M13"
    public static let savableGraph = "M14"

    public static let all: [Rule] = rules + launch

    static let rules: [Rule] = [
        Rule(id: nonSyntheticKept, statement: "A non-synthetic work is never merged by ISBN: each becomes a work of its own.",
             source: "seed 002 deduplicateSyntheticWorks (filter synthetic == false)", confidence: "design"),
        Rule(id: sharedISBNMerged, statement: "Synthetic works sharing an ISBN through their editions (transitively) become one work holding all their editions and all their volume IDs; title, tags and provider come from the first in response order.",
             source: "seed 002 US-2, Decision 'Deduplicate by ISBN'", confidence: "design"),
        Rule(id: singletonKept, statement: "A synthetic work whose ISBNs no other synthetic work shares is kept as a work of its own.",
             source: "seed 002 US-2 (the printed code drops it: where count > 1)", confidence: "design"),
        Rule(id: missingISBNNotMerged, statement: "Synthetic works without an ISBN are never merged with each other.",
             source: "seed 002 (the printed code groups by isbn ?? \"\")", confidence: "design"),
        Rule(id: ownEditions, statement: "Each work gets exactly the editions whose work id names it (or a member of its group); editions naming no work are ignored.",
             source: "seed 002 (the printed code gives every work data.editions)", confidence: "design"),
        Rule(id: ownAuthors, statement: "Each work gets exactly the authors who wrote it (or a member of its group), as author models of its own, one per name (a name the response repeats is one author).",
             source: "seed 002 (the printed code gives every work data.authors)", confidence: "design"),
        Rule(id: tagsPassThrough, statement: "Subject tags pass through unchanged: the same strings in the same order.",
             source: "seed 002 US-3, Decision 'No iOS Genre Normalization'", confidence: "design"),
        Rule(id: providerKept, statement: "Provenance is kept as each DTO names it: a work takes the first member's primaryProvider and synthetic flag (a reused work too), an edition its own DTO's primaryProvider, never its work's.",
             source: "seed 002 Solution 4 (provenance tracking)", confidence: "design"),
        Rule(id: knownVolumeReused, statement: "A volume ID held by a live work of the mapper's context yields that work, not a duplicate: it takes the response's title, tags and provider, gains the volume IDs no live work holds, the editions with an ISBN it lacks and the authors with a name it lacks. Mapping the same response twice creates nothing. Holds across saves (temporary identifiers change, R2-R4), a fresh context and a cleared cache, and for concurrent enrichments: they map as if one after another, in an order that respects which finished before which began.",
             source: "seed 000 (cache by PersistentIdentifier); R2, R3, R4, R16", confidence: "D"),
        Rule(id: deletedYieldsFresh, statement: "Every returned work is live in the mapper's context: a volume ID whose work was deleted (in this or another context), whose insert was rolled back, or that was left in an abandoned context yields a fresh work.",
             source: "seed 000 'Cache Hit with Deleted Work'; R14, R15, R18, R32", confidence: "D"),
        Rule(id: noStaleRead, statement: "No mapping reads or writes a deleted or invalidated object: the store records no trap.",
             source: "R14, R27, R28 (seed 000's model(for:) returns nil is false)", confidence: "M"),
        Rule(id: storeMatches, statement: "After every step the mapper's context and the saved store hold exactly the specified works, editions and authors: save writes pending changes, rollback and a fresh context drop them, a delete cascades to the work's editions and leaves its authors.",
             source: "R18, R19, R32; seed 004 (Work.editions cascade)", confidence: "D"),
        Rule(id: malformedInsertsNothing, statement: "A malformed or truncated response throws DTODecodingError naming the coding path and inserts nothing; the context is unchanged.",
             source: "design (DTO decoding)", confidence: "design"),
        Rule(id: savableGraph, statement: "A mapping never makes the context unsavable: a work holds at most the schema's maxCount (3) of authors, those it held first, then the response's in order; an edition stores a page count only inside the schema's range (1...50000), else none; its ISBN is the primary one, else the first further one, and its title and publisher pass through.",
             source: "schema (Work.authors maxCount 3, Edition.pageCount 1...50000); R25 (validation at save, 1590/1610/1620)", confidence: "design"),
    ]
}
