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
public enum GraphCommand: TraceCodable, Sendable, Equatable {
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

    /// The reference a creating step binds.
    public var result: Ref? {
        switch self {
        case .create(let r, _, _, _), .lookup(let r, _, _, _), .wishlist(let r, _, _), .owned(let r, _, _, _): return r
        default: return nil
        }
    }

    public var trace: TraceStep {
        switch self {
        case let .create(r, entity, variant, context):
            return TraceStep("create", result: r, [.init("entity", .string(BooksEntities.names[entity])), .init("variant", .int(variant)), .init("context", .int(context))])
        case let .insert(ref, context):
            return TraceStep("insert", [.init("model", .ref(ref)), .init("context", .int(context))])
        case let .relate(ref, relationship, target):
            return TraceStep("relate", [.init("model", .ref(ref)), .init("relationship", .int(relationship)), .init("target", .ref(target))])
        case let .unrelate(ref, relationship, target):
            return TraceStep("unrelate", [.init("model", .ref(ref)), .init("relationship", .int(relationship)), .init("target", .ref(target))])
        case let .set(ref, slot, variant):
            return TraceStep("set", [.init("model", .ref(ref)), .init("slot", .int(slot)), .init("variant", .int(variant))])
        case let .delete(ref): return TraceStep("delete", [.init("model", .ref(ref))])
        case let .save(context): return TraceStep("save", [.init("context", .int(context))])
        case let .rollback(context): return TraceStep("rollback", [.init("context", .int(context))])
        case let .holdID(ref): return TraceStep("holdID", [.init("model", .ref(ref))])
        case let .lookup(r, held, context, method):
            return TraceStep("lookup", result: r, [.init("held", .int(held)), .init("context", .int(context)), .init("method", .string(method.rawValue))])
        case let .read(ref, property): return TraceStep("read", [.init("model", .ref(ref)), .init("property", .int(property))])
        case let .state(ref): return TraceStep("state", [.init("model", .ref(ref))])
        case let .fetchTitle(context, variant): return TraceStep("fetchTitle", [.init("context", .int(context)), .init("variant", .int(variant))])
        case let .wishlist(r, work, context):
            return TraceStep("wishlist", result: r, [.init("work", .ref(work)), .init("context", .int(context))])
        case let .owned(r, work, edition, context):
            return TraceStep("owned", result: r, [.init("work", .ref(work)), .init("edition", .ref(edition)), .init("context", .int(context))])
        case let .acquire(ref, edition): return TraceStep("acquire", [.init("entry", .ref(ref)), .init("edition", .ref(edition))])
        case let .userEntry(ref): return TraceStep("userEntry", [.init("work", .ref(ref))])
        case let .validate(ref): return TraceStep("validate", [.init("entry", .ref(ref))])
        }
    }

    public init(trace step: TraceStep) throws(TraceError) {
        switch step.name {
        case "create":
            let name = try step.string("entity")
            guard let entity = BooksEntities.names.firstIndex(of: name) else {
                throw TraceError("argument 'entity' of 'create' is \"\(name)\"; expected one of \(BooksEntities.names.joined(separator: ", "))")
            }
            self = .create(result: try step.requireResult(), entity: entity, variant: try step.int("variant", in: 0...2),
                           context: try step.int("context", in: -1...1))
        case "insert": self = .insert(try step.ref("model"), context: try step.int("context", in: 0...1))
        case "relate": self = .relate(try step.ref("model"), relationship: try step.int("relationship", in: 0...2), target: try step.ref("target"))
        case "unrelate": self = .unrelate(try step.ref("model"), relationship: try step.int("relationship", in: 0...2), target: try step.ref("target"))
        case "set": self = .set(try step.ref("model"), slot: try step.int("slot", in: 0...1), variant: try step.int("variant", in: 0...2))
        case "delete": self = .delete(try step.ref("model"))
        case "save": self = .save(context: try step.int("context", in: 0...1))
        case "rollback": self = .rollback(context: try step.int("context", in: 0...1))
        case "holdID": self = .holdID(try step.ref("model"))
        case "lookup":
            self = .lookup(result: try step.requireResult(), held: try step.int("held", in: 0...10_000),
                           context: try step.int("context", in: 0...1), method: try step.enumeration("method", LookupMethod.self))
        case "read": self = .read(try step.ref("model"), property: try step.int("property", in: 0...10))
        case "state": self = .state(try step.ref("model"))
        case "fetchTitle": self = .fetchTitle(context: try step.int("context", in: 0...1), variant: try step.int("variant", in: 0...2))
        case "wishlist": self = .wishlist(result: try step.requireResult(), work: try step.ref("work"), context: try step.int("context", in: 0...1))
        case "owned":
            self = .owned(result: try step.requireResult(), work: try step.ref("work"), edition: try step.ref("edition"),
                          context: try step.int("context", in: 0...1))
        case "acquire": self = .acquire(try step.ref("entry"), edition: try step.ref("edition"))
        case "userEntry": self = .userEntry(try step.ref("work"))
        case "validate": self = .validate(try step.ref("entry"))
        default: throw TraceError("unknown command '\(step.name)' for target graph")
        }
    }
}
