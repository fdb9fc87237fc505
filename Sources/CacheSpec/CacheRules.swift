import GraphFuzzEngine

/// The rules of the persistent cache's specification, as data. docs/spec/cache.md lists the same ids.
public enum CacheRules {
    // One constant per rule, named for what it protects; the model names the rule it decides with these.
    public static let lastValueRead = "C1"
    public static let keyIdentity = "C2"
    public static let diskReadBack = "C3"
    public static let expiredNeverReturned = "C4"
    public static let atomicWrites = "C5"
    public static let corruptFileDeleted = "C6"
    public static let containsMemoryOnly = "C7"
    public static let diskFaultsHidden = "C8"
    public static let cleanupExact = "C9"
    public static let concurrentSets = "C10"

    public static let all: [Rule] = [
        Rule(id: lastValueRead, statement: "A read returns the last value set for that key through any instance sharing the identifier, or nothing only where C4, C5, C6, C8 or C9 say so: never an older value, never another key's value, never damaged bytes.",
             source: "design; seed 'Disk persistence testing' (instances with one identifier share storage)", confidence: "design"),
        Rule(id: keyIdentity, statement: "Keys are told apart by identity, not by description: two distinct keys whose descriptions are equal never share a value, in memory or on disk.",
             source: "design; seed 'File Naming' (the file name hashes key.description alone)", confidence: "design"),
        Rule(id: diskReadBack, statement: "A value no longer in memory is read back intact from disk until it expires, through any instance of the identifier and after a restart; a disk hit is promoted to memory.",
             source: "seed 'value(for:) - Cache Retrieval' steps 4-5", confidence: "documented"),
        Rule(id: expiredNeverReturned, statement: "An expired value (written one hour or more ago) is never returned, from memory or from disk; reading it deletes its file.",
             source: "seed 'Directory Management' (files older than 1 hour are removed); design", confidence: "design"),
        Rule(id: atomicWrites, statement: "Writes are atomic: a set writes the new bytes apart and commits them with one rename, so a crash can interrupt a set between its write and its commit; after a crash during a set (a torn write, or between write and rename) and the restart, the key reads what its file held before that set (nothing if it held nothing), never a prefix.",
             source: "design (torn write, crash between write and rename)", confidence: "design"),
        Rule(id: corruptFileDeleted, statement: "A file that fails its checksum or does not decode (a flipped bit) is deleted and the read is a miss.",
             source: "seed 'Resilience features' (corrupted files are automatically deleted)", confidence: "documented"),
        Rule(id: containsMemoryOnly, statement: "contains answers from memory only: true exactly when memory holds an unexpired value for the key; it never reads the disk.",
             source: "seed 'contains(_:) - Existence Check' (only checks memory cache)", confidence: "documented"),
        Rule(id: diskFaultsHidden, statement: "A disk fault (failed write, full disk, vanished folder) never surfaces and never loses the memory tier: the value set stays readable from memory; a failed write (failing before the first byte or after part of the file, a failed fsync, a failed rename) removes the older disk copy so no later read falls back to it and leaves no temporary file; a vanished folder is recreated and the write goes through.",
             source: "seed 'All errors logged but not thrown', 'Cache continues functioning even if disk fails'; design", confidence: "design"),
        Rule(id: cleanupExact, statement: "Cleanup (at start, at shutdown, every N writes of an instance, N = 100 in production, and on demand) deletes exactly the expired files and the files no key names (temporary files left by a crash); fresh entries stay.",
             source: "seed 'Directory Management', 'Disk I/O'", confidence: "documented"),
        Rule(id: concurrentSets, statement: "Gets and sets through the actor are atomic, concurrent ones included: what concurrent calls return, and what the cache holds afterwards, is what C1-C9 give for some order of them that respects which call returned before which began (linearizability).",
             source: "seed 'Concurrency testing' (parallel sets and gets of one key in a task group)", confidence: "documented"),
    ]
}
