import GraphFuzzEngine

/// R10: linking a new model to a registered one.
public enum NewModelLink: String, Sendable, CaseIterable { case trap, autoInsert }
/// R4: a temporary identifier held across its save.
public enum TemporaryIDAfterSave: String, Sendable, CaseIterable { case resolves, unknown }
/// R15: `registeredModel(for:)` after another context's saved delete.
public enum RegisteredAfterForeignDelete: String, Sendable, CaseIterable { case stale, none }
/// Where the case's container keeps its rows: in memory, or in an SQLite file (G22–G27).
public enum StoreBackend: String, Sendable, CaseIterable { case memory, sqlite }

/// The per-case parameters of the store rules: the unknown evidence, fuzzed both ways, and the backend.
public struct StoreParameters: Sendable, Equatable {
    public var newModelLink: NewModelLink
    public var temporaryIDAfterSave: TemporaryIDAfterSave
    public var registeredAfterForeignDelete: RegisteredAfterForeignDelete
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
                        backend: args.enumeration("backend", StoreBackend.self, default: .memory) { $0.chooseBool(probability: 0.1) ? .sqlite : .memory })
    }

    /// The parameters as a trace reads them (backend only when not memory).
    public var traceArguments: [TraceStep.Argument] {
        [.init("newModelLink", .string(newModelLink.rawValue)),
         .init("temporaryIDAfterSave", .string(temporaryIDAfterSave.rawValue)),
         .init("registeredAfterForeignDelete", .string(registeredAfterForeignDelete.rawValue))]
            + (backend == .memory ? [] : [.init("backend", .string(backend.rawValue))])
    }
}
