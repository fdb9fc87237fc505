import GraphFuzzEngine

/// How a held identifier is looked up.
public enum LookupMethod: String, Sendable, CaseIterable {
    /// `model(for:)`: never nil (R14).
    case model
    /// `registeredModel(for:)`: the context's own (R15).
    case registered
    /// A fetch by identifier: reads the store (R16).
    case fetch
}

/// One step of the `graph` target. Contexts are 0 (main) and 1 (second); `-1` is "not inserted".
/// Its trace (`v3 = create(entity: "Work", variant: 0, context: 0)`) is derived from how the graph
/// target's actions draw it.
public enum GraphCommand: Sendable, Equatable {
    /// A new model of `entity` with the `variant`-th value of its create pool, inserted into `context` unless -1.
    case create(result: Ref, entity: Int, variant: Int, context: Int)
    case insert(Ref, context: Int)
    case relate(Ref, relationship: Int, target: Ref)
    case unrelate(Ref, relationship: Int, target: Ref)
    /// Sets the `slot`-th settable attribute to the `variant`-th value of its pool.
    case set(Ref, slot: Int, variant: Int)
    /// Deletes the model in its context.
    case delete(Ref)
    /// `Library.save()` on a context: validation, the CloudKit guard, then the store's save.
    case save(context: Int)
    case rollback(context: Int)
    /// Holds the model's current identifier for later lookups.
    case holdID(Ref)
    case lookup(result: Ref, held: Int, context: Int, method: LookupMethod)
    /// Reads attribute `property`, or relationship `property - attributeCount`.
    case read(Ref, property: Int)
    case state(Ref)
    /// Fetches works whose title is the `variant`-th title.
    case fetchTitle(context: Int, variant: Int)
    case wishlist(result: Ref, work: Ref, context: Int)
    case owned(result: Ref, work: Ref, edition: Ref, context: Int)
    case acquire(Ref, edition: Ref)
    case userEntry(Ref)
    case validate(Ref)
    /// An app relaunch: the container is closed and reopened on the same store (G22–G24, G27).
    case relaunch
    /// A save of `context` killed at write step `point` of its transaction, then a relaunch (G25).
    case killedSave(context: Int, point: Int)

    /// The reference a creating step binds.
    public var result: Ref? {
        switch self {
        case .create(let r, _, _, _), .lookup(let r, _, _, _), .wishlist(let r, _, _), .owned(let r, _, _, _): return r
        default: return nil
        }
    }
}
