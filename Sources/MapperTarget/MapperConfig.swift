import GraphFuzzEngine
import GraphStore

/// Per-case store parameters where the evidence is unknown or conflicting; the mapper must behave
/// the same under every value (the specification does not depend on them).
public struct MapperConfig: TraceCodable, Sendable, Equatable {
    /// R4: what a temporary identifier held across its save resolves to.
    public var temporaryIDAfterSave: StoreBehavior.TemporaryIDAfterSave
    /// R15: what `registeredModel(for:)` returns for a row another context deleted.
    public var registeredAfterForeignDelete: StoreBehavior.RegisteredAfterForeignDelete
    /// R10: linking a new model to a registered one.
    public var newModelLink: StoreBehavior.NewModelLink

    public init(temporaryIDAfterSave: StoreBehavior.TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: StoreBehavior.RegisteredAfterForeignDelete = .stale,
                newModelLink: StoreBehavior.NewModelLink = .autoInsert) {
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
        self.newModelLink = newModelLink
    }

    static func draw(_ draw: Draw) -> MapperConfig {
        MapperConfig(
            temporaryIDAfterSave: draw.chooseBool() ? .unknown : .resolves,
            registeredAfterForeignDelete: draw.chooseBool() ? .none : .stale,
            newModelLink: draw.chooseBool() ? .trap : .autoInsert)
    }

    /// The store configuration: traps recorded, so a stale read is a failure at its step.
    var storeConfiguration: ModelConfiguration {
        ModelConfiguration(trapPolicy: .record, behavior: StoreBehavior(
            newModelLink: newModelLink, temporaryIDAfterSave: temporaryIDAfterSave,
            registeredAfterForeignDelete: registeredAfterForeignDelete))
    }

    public var trace: TraceStep {
        TraceStep("config", [
            .init("temporaryIDAfterSave", .string(temporaryIDAfterSave.rawValue)),
            .init("registeredAfterForeignDelete", .string(registeredAfterForeignDelete.rawValue)),
            .init("newModelLink", .string(newModelLink.rawValue)),
        ])
    }

    public init(trace: TraceStep) throws(TraceError) {
        guard trace.name == "config" else { throw TraceError("expected 'config(…)', found '\(trace.name)'") }
        temporaryIDAfterSave = try trace.enumeration("temporaryIDAfterSave", StoreBehavior.TemporaryIDAfterSave.self)
        registeredAfterForeignDelete = try trace.enumeration("registeredAfterForeignDelete", StoreBehavior.RegisteredAfterForeignDelete.self)
        newModelLink = try trace.enumeration("newModelLink", StoreBehavior.NewModelLink.self)
    }
}
