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
    /// The store's backend: rows in memory, or an SQLite file (issue 17). Traced only when on disk.
    public var onDisk: Bool

    public init(temporaryIDAfterSave: StoreBehavior.TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: StoreBehavior.RegisteredAfterForeignDelete = .stale,
                newModelLink: StoreBehavior.NewModelLink = .autoInsert, onDisk: Bool = false) {
        self.onDisk = onDisk
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
        self.newModelLink = newModelLink
    }

    static func draw(_ draw: Draw) -> MapperConfig {
        MapperConfig(
            temporaryIDAfterSave: draw.chooseBool() ? .unknown : .resolves,
            registeredAfterForeignDelete: draw.chooseBool() ? .none : .stale,
            newModelLink: draw.chooseBool() ? .trap : .autoInsert,
            onDisk: draw.chooseBool(probability: 0.1))
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
        ] + (onDisk ? [.init("onDisk", .bool(true))] : []))
    }

    public init(trace: TraceStep) throws(TraceError) {
        guard trace.name == "config" else { throw TraceError("expected 'config(…)', found '\(trace.name)'") }
        temporaryIDAfterSave = try trace.enumeration("temporaryIDAfterSave", StoreBehavior.TemporaryIDAfterSave.self)
        registeredAfterForeignDelete = try trace.enumeration("registeredAfterForeignDelete", StoreBehavior.RegisteredAfterForeignDelete.self)
        newModelLink = try trace.enumeration("newModelLink", StoreBehavior.NewModelLink.self)
        onDisk = trace.arguments.contains { $0.label == "onDisk" } ? try trace.bool("onDisk") : false
    }
}

/// Throughput benchmarks measure the in-memory backend; on-disk cases (bound by SQLite's durable
/// commits) are measured on their own (`graph-fuzz bench`, "On-disk cases").
extension MapperMachine: Benchmarkable {
    public func isBenchmarked(_ config: MapperConfig) -> Bool { !config.onDisk }
}
