import GraphFuzzEngine

/// R10: linking a new model to a registered one.
public enum NewModelLink: String, Sendable, CaseIterable { case trap, autoInsert }
/// R4: a temporary identifier held across its save.
public enum TemporaryIDAfterSave: String, Sendable, CaseIterable { case resolves, unknown }
/// R15: `registeredModel(for:)` after another context's saved delete.
public enum RegisteredAfterForeignDelete: String, Sendable, CaseIterable { case stale, none }
/// R7: the context's model of a saved row that a pending insert took over at save.
public enum ReplacedByUpsert: String, Sendable, CaseIterable {
    case detached, invalidated

    /// The lifecycle the replaced model takes.
    var lifecycle: SpecLifecycle { self == .detached ? .detached : .invalidated }
}
/// R27 against field reports: reading a model whose deletion its context saved.
public enum ReadAfterSavedDelete: String, Sendable, CaseIterable { case readable, traps }
/// R21 against a field survey: a deny rule on a relationship without an inverse.
public enum DenyWithoutInverse: String, Sendable, CaseIterable { case enforced, ignored }
/// Where the case's container keeps its rows: in memory, or in an SQLite file (G22–G27).
public enum StoreBackend: String, Sendable, CaseIterable { case memory, sqlite }

/// The per-case parameters of the store rules: the unknown evidence, fuzzed both ways, and the backend.
public struct StoreParameters: Sendable, Equatable {
    public var newModelLink: NewModelLink
    public var temporaryIDAfterSave: TemporaryIDAfterSave
    public var registeredAfterForeignDelete: RegisteredAfterForeignDelete
    /// Drawn for a schema with a unique attribute (`drawForShapes`).
    public var replacedByUpsert: ReplacedByUpsert = .detached
    /// Drawn for any schema but BooksTracker's, which keeps R27 (`drawForShapes`).
    public var readAfterSavedDelete: ReadAfterSavedDelete = .readable
    /// Drawn for a schema with a deny rule without an inverse (`drawForShapes`).
    public var denyWithoutInverse: DenyWithoutInverse = .enforced
    /// The store's backend; the rules hold on both.
    public var backend: StoreBackend

    public init(newModelLink: NewModelLink = .trap, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale, backend: StoreBackend = .memory) {
        self.newModelLink = newModelLink
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
        self.backend = backend
    }

    /// Draws the parameters (each unknown evidence both ways; the SQLite backend one case in ten, traced only then).
    public static func draw(_ args: inout Arguments) -> StoreParameters {
        StoreParameters(newModelLink: args.enumeration("newModelLink", NewModelLink.self) { $0.chooseBool() ? .autoInsert : .trap },
                        temporaryIDAfterSave: args.enumeration("temporaryIDAfterSave", TemporaryIDAfterSave.self) { $0.chooseBool() ? .unknown : .resolves },
                        registeredAfterForeignDelete: args.enumeration("registeredAfterForeignDelete", RegisteredAfterForeignDelete.self) {
                            $0.chooseBool() ? .none : .stale
                        },
                        backend: args.parameters { $0.enumeration("backend", StoreBackend.self, default: .memory) { $0.chooseBool(probability: 0.1) ? .sqlite : .memory } })
    }

    /// After `draw`, the parameters whose evidence is contradictory or unknown for shapes `schema` declares, each
    /// both ways and traced when not at its first value: `readAfterSavedDelete` always, `replacedByUpsert` with a
    /// unique attribute, `denyWithoutInverse` with a deny rule without an inverse.
    public mutating func drawForShapes(_ schema: GraphSchema, _ args: inout Arguments) {
        readAfterSavedDelete = args.enumeration("readAfterSavedDelete", ReadAfterSavedDelete.self, default: .readable) { $0.chooseBool() ? .traps : .readable }
        if schema.hasUniqueAttributes {
            replacedByUpsert = args.enumeration("replacedByUpsert", ReplacedByUpsert.self, default: .detached) { $0.chooseBool() ? .invalidated : .detached }
        }
        if schema.entities.contains(where: { $0.relationships.contains { $0.deleteRule == .deny && $0.inverse == nil } }) {
            denyWithoutInverse = args.enumeration("denyWithoutInverse", DenyWithoutInverse.self, default: .enforced) { $0.chooseBool() ? .ignored : .enforced }
        }
    }

    /// The parameters as a trace reads them (backend and the parameters of `drawForShapes` only when not at their first value).
    public var traceArguments: [TraceStep.Argument] {
        [.init("newModelLink", .string(newModelLink.rawValue)),
         .init("temporaryIDAfterSave", .string(temporaryIDAfterSave.rawValue)),
         .init("registeredAfterForeignDelete", .string(registeredAfterForeignDelete.rawValue))]
            + (backend == .memory ? [] : [.init("backend", .string(backend.rawValue))])
            + (readAfterSavedDelete == .readable ? [] : [.init("readAfterSavedDelete", .string(readAfterSavedDelete.rawValue))])
            + (replacedByUpsert == .detached ? [] : [.init("replacedByUpsert", .string(replacedByUpsert.rawValue))])
            + (denyWithoutInverse == .enforced ? [] : [.init("denyWithoutInverse", .string(denyWithoutInverse.rawValue))])
    }
}
