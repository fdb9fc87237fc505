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

/// One store operation over a schema. Contexts are 0 (main) and 1 (second); `-1` is "not inserted". Entities,
/// attributes and relationships are indexes into the schema; values are the schema's pools (`GraphSchema`).
public enum GraphCommand: Sendable, Equatable {
    /// A new model of `entity` with the `variant`-th value of its create pool and the `unique`-th value of each
    /// of its unique pools (G28), inserted into `context` unless -1.
    case create(result: Ref, entity: Int, variant: Int, context: Int, unique: Int = 0)
    case insert(Ref, context: Int)
    case relate(Ref, relationship: Int, target: Ref)
    case unrelate(Ref, relationship: Int, target: Ref)
    /// Sets the `slot`-th settable attribute of the model's entity to the `variant`-th value of its pool.
    case set(Ref, slot: Int, variant: Int)
    /// Deletes the model in its context.
    case delete(Ref)
    /// The context's save.
    case save(context: Int)
    case rollback(context: Int)
    /// Holds the model's current identifier for later lookups.
    case holdID(Ref)
    case lookup(result: Ref, held: Int, context: Int, method: LookupMethod)
    /// Reads attribute `property`, or relationship `property - attributeCount`.
    case read(Ref, property: Int)
    case state(Ref)
    /// Fetches the models of `entity` whose `attribute` equals `value`.
    case fetch(context: Int, entity: Int, attribute: Int, value: SpecValue)
    /// An app relaunch: the container is closed and reopened on the same store (G22–G24, G26).
    case relaunch
    /// A save of `context` killed `back` write operations before the end of its transaction, then a relaunch (G25).
    case killedSave(context: Int, back: Int)

    /// The reference a creating step binds.
    public var result: Ref? {
        switch self {
        case .create(let r, _, _, _, _), .lookup(let r, _, _, _): return r
        default: return nil
        }
    }
}
