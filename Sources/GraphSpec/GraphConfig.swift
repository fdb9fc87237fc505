import GraphFuzzEngine

/// The schema configuration of the BooksTracker models.
public enum SchemaConfiguration: String, Sendable, CaseIterable {
    case local, cloudKit
}

/// R10: linking a new model to a registered one.
public enum NewModelLink: String, Sendable, CaseIterable { case trap, autoInsert }
/// R4: a temporary identifier held across its save.
public enum TemporaryIDAfterSave: String, Sendable, CaseIterable { case resolves, unknown }
/// R15: `registeredModel(for:)` after another context's saved delete.
public enum RegisteredAfterForeignDelete: String, Sendable, CaseIterable { case stale, none }

/// Where the case's container keeps its rows: in memory, or in an SQLite file (issue 17; G22–G27).
public enum StoreBackend: String, Sendable, CaseIterable { case memory, sqlite }

/// The per-case parameters: unknown evidence fuzzed both ways, and the schema configuration.
public struct GraphConfig: Sendable, Equatable {
    public var schema: SchemaConfiguration
    public var newModelLink: NewModelLink
    public var temporaryIDAfterSave: TemporaryIDAfterSave
    public var registeredAfterForeignDelete: RegisteredAfterForeignDelete
    /// The store's backend; the rules hold on both. Traced only when not `.memory` (older traces decode as memory).
    public var backend: StoreBackend

    public init(schema: SchemaConfiguration = .local, newModelLink: NewModelLink = .trap,
                temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale, backend: StoreBackend = .memory) {
        (self.schema, self.newModelLink, self.backend) = (schema, newModelLink, backend)
        (self.temporaryIDAfterSave, self.registeredAfterForeignDelete) = (temporaryIDAfterSave, registeredAfterForeignDelete)
    }

    /// The configuration as its trace reads (`config(schema: "local", …)`), for comments in exported tests.
    public var trace: TraceStep {
        TraceStep("config", [
            .init("schema", .string(schema.rawValue)),
            .init("newModelLink", .string(newModelLink.rawValue)),
            .init("temporaryIDAfterSave", .string(temporaryIDAfterSave.rawValue)),
            .init("registeredAfterForeignDelete", .string(registeredAfterForeignDelete.rawValue)),
        ] + (backend == .memory ? [] : [.init("backend", .string(backend.rawValue))]))
    }
}
