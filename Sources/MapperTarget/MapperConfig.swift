import GraphFuzzEngine
import GraphStore

/// Per-case store parameters where the evidence is unknown or conflicting; the mapper must behave
/// the same under every value (the specification does not depend on them).
public struct MapperConfig: Sendable, Equatable {
    /// R4: what a temporary identifier held across its save resolves to.
    public var temporaryIDAfterSave: StoreBehavior.TemporaryIDAfterSave
    /// R15: what `registeredModel(for:)` returns for a row another context deleted.
    public var registeredAfterForeignDelete: StoreBehavior.RegisteredAfterForeignDelete
    /// R10: linking a new model to a registered one.
    public var newModelLink: StoreBehavior.NewModelLink
    /// The store's backend: rows in memory, or an SQLite file. Traced only when on disk.
    public var onDisk: Bool

    public init(temporaryIDAfterSave: StoreBehavior.TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: StoreBehavior.RegisteredAfterForeignDelete = .stale,
                newModelLink: StoreBehavior.NewModelLink = .autoInsert, onDisk: Bool = false) {
        self.onDisk = onDisk
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
        self.newModelLink = newModelLink
    }

    /// Each parameter fuzzed both ways; the store on disk one case in ten (traced only then: older traces read
    /// as in memory). The store's behaviours can stand for steps (under another, a failure may need fewer); the
    /// backend cannot (the specification predicts the same on both): it is drawn as a parameter, which the
    /// configuration shrink passes leave alone.
    static func draw(_ args: inout Arguments) -> MapperConfig {
        MapperConfig(
            temporaryIDAfterSave: args.enumeration("temporaryIDAfterSave", StoreBehavior.TemporaryIDAfterSave.self) { $0.chooseBool() ? .unknown : .resolves },
            registeredAfterForeignDelete: args.enumeration("registeredAfterForeignDelete", StoreBehavior.RegisteredAfterForeignDelete.self) {
                $0.chooseBool() ? .none : .stale
            },
            newModelLink: args.enumeration("newModelLink", StoreBehavior.NewModelLink.self) { $0.chooseBool() ? .trap : .autoInsert },
            onDisk: args.parameters { $0.bool("onDisk", probability: 0.1, default: false) })
    }

    /// The store configuration: traps recorded, so a stale read is a failure at its step.
    var storeConfiguration: ModelConfiguration {
        ModelConfiguration(trapPolicy: .record, behavior: StoreBehavior(
            newModelLink: newModelLink, temporaryIDAfterSave: temporaryIDAfterSave,
            registeredAfterForeignDelete: registeredAfterForeignDelete))
    }
}

/// Throughput benchmarks measure the in-memory backend; on-disk cases (bound by SQLite's durable
/// commits) are measured on their own (`graph-fuzz bench`, "On-disk cases").
extension MapperMachine: Benchmarkable {
    package func isBenchmarked(_ config: MapperConfig) -> Bool { !config.onDisk }
}
