import GraphFuzzEngine
import GraphSpec

/// The BooksTracker app's rules (seed 004), layered on the object-graph rules (`GraphRules`).
public enum BooksRules {
    public static let insertBeforeRelate = "B1"
    public static let acquire = "B2"
    public static let userEntry = "B3"
    public static let ownedKeepsEdition = "B4"
    public static let libraryValidates = "B5"
    public static let workCascade = "B6"
    public static let shippedSchemas = "B7"
    public static let backgroundByIdentifier = "B8"
    public static let cancelledRefresh = "B9"

    /// The graph target's rules, as `graph-fuzz list` shows them: the store's, the app's, then the on-disk ones.
    public static let all: [Rule] = GraphRules.store + books + GraphRules.launch

    public static let books: [Rule] = [
        Rule(id: insertBeforeRelate, statement: "The entry factories insert the entry before relating it: with an inserted work (and edition) they never trap.",
             source: "seed 004 Task 1.1–1.2", confidence: "design"),
        Rule(id: acquire, statement: "Acquiring an edition sets the entry's edition and turns a wishlist entry into toRead.",
             source: "seed 004 Task 5.3 (2)", confidence: "design"),
        Rule(id: userEntry, statement: "Work.userEntry returns an owned entry (not wishlist, with an edition) first, else a wishlist entry, else nil.",
             source: "seed 004 Phase 3", confidence: "design"),
        Rule(id: ownedKeepsEdition, statement: "An owned entry keeps its edition: deleting an edition an entry still holds fails the save (local: .deny, 1600; CloudKit: refused before save).",
             source: "seed 004 Phase 4, R21, R23", confidence: "design"),
        Rule(id: libraryValidates, statement: "Library.save validates pending entries: a wishlist entry with an edition, or an entry without a work, is refused before the store saves.",
             source: "seed 004 Task 5.1", confidence: "design"),
        Rule(id: workCascade, statement: "Deleting a work cascades to its editions and library entries.", source: "seed 004 Task 5.3 (3)", confidence: "design"),
        Rule(id: shippedSchemas, statement: "The local schema fails the CloudKit check naming the deny rule on Edition.userLibraryEntries; the CloudKit schema passes it.",
             source: "seed 004 Phase 4, R23, R24", confidence: "D"),
        Rule(id: backgroundByIdentifier, statement: "The background actor's refresh of a work fetches it by identifier after its await: a work another context deleted and saved meanwhile is skipped, nothing changed and no trap; else it gets the title and Library.save() saves.",
             source: "seed 000 §4 (Concurrent Deletions), R16, R28", confidence: "design"),
        Rule(id: cancelledRefresh, statement: "A background refresh cancelled while it awaits the catalogue stops before it changes anything: its context holds no change of it (an unsaved title there is written by the actor's next save).",
             source: "Swift concurrency's cooperative cancellation (Task.isCancelled, SE-0304); seed 000 §4", confidence: "design"),
    ]
}

/// The graph target's per-case parameters: the schema configuration, then the store's (unknown evidence, backend).
public struct GraphConfig: Sendable, Equatable {
    public var schema: SchemaConfiguration
    public var parameters: StoreParameters

    public init(schema: SchemaConfiguration = .local, parameters: StoreParameters = StoreParameters()) {
        self.schema = schema
        self.parameters = parameters
    }

    /// The configuration as its trace reads (`config(schema: "local", …)`), for comments in exported tests.
    public var trace: TraceStep { TraceStep("config", [.init("schema", .string(schema.rawValue))] + parameters.traceArguments) }
}
