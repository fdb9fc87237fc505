import GraphFuzzEngine
import GraphSpec
import GraphStore

/// A machine that checks the object-graph rules (G1–G28, `GraphRules`) against GraphStore for a schema of yours:
/// it creates, inserts, relates, sets, deletes, saves, rolls back, looks up, reads, fetches and relaunches over
/// your entities, and predicts each step from the rules. Add your app's own actions — its factories, mappers and
/// deletion flows written against GraphStore — with their predictions under your own rules, and your own
/// invariants; `GraphFuzzTest.check(machine)` runs it.
///
/// The schema's CloudKit check (G21) runs on every case; with `cloudKit: true` the schema must also pass it, and a
/// failure lists its violations.
public struct SchemaMachine: StateMachine, Sendable {
    /// The per-case parameters: the unknown evidence, each fuzzed both ways, and the backend (memory; SQLite one
    /// case in ten).
    public struct Config: Sendable, Equatable {
        public var parameters: StoreParameters
    }
    public typealias Model = GraphModel
    public typealias System = SchemaSystem

    /// The store schema the cases run on, and the specification's view of it.
    public let schema: Schema
    public let specification: GraphSchema
    let cloudKit: Bool
    let appActions: @Sendable () -> [Action<SchemaMachine>]
    let appInvariants: @Sendable () -> [Invariant<SchemaMachine>]
    /// Where the SQLite cases' store files go: the system's scratch location, or the folder the harness gives
    /// (`usingScratchFolder`: a worker's own, removed when it dies).
    private(set) var stores: ScratchStores

    /// - Parameters:
    ///   - schema: your schema (of model classes, `Schema(_:)`, or declared, `Schema(entities:)`).
    ///   - name: its name in reports.
    ///   - cloudKit: whether the schema must pass the CloudKit check (R23, R24).
    ///   - actions: your app's actions, after the store's.
    ///   - invariants: your app's invariants, after G21.
    public init(schema: Schema, name: String = "schema", cloudKit: Bool = false,
                actions: @escaping @Sendable () -> [Action<SchemaMachine>] = { [] },
                invariants: @escaping @Sendable () -> [Invariant<SchemaMachine>] = { [] }) {
        self.schema = schema
        self.specification = GraphSchema(schema, name: name)
        self.cloudKit = cloudKit
        self.appActions = actions
        self.appInvariants = invariants
        self.stores = ScratchStores()
    }

    public var actions: [Action<SchemaMachine>] {
        StoreActions.actions(perform: { command, system in try system.run(command, save: SchemaSystem.contextSave) }) + appActions()
    }

    public var invariants: [Invariant<SchemaMachine>] {
        let required = cloudKit
        return [
            Invariant(GraphRules.cloudKitCheck) { model, system in
                if !system.cloudKitAgrees {
                    return "CloudKit check: expected \(system.cloudKit.predicted), found \(system.cloudKit.found)"
                }
                guard required, !system.cloudKit.predicted.isEmpty else { return nil }
                return "the \(model.schema.name) schema cannot be mirrored to CloudKit: \(system.cloudKit.predicted.joined(separator: ", "))"
            },
        ] + appInvariants()
    }

    public func makeConfig(_ args: inout Arguments) -> Config {
        var parameters = StoreParameters.draw(&args)
        parameters.drawForShapes(specification, &args)
        return Config(parameters: parameters)
    }
    public func makeModel(_ config: Config) -> GraphModel { GraphModel(schema: specification, parameters: config.parameters) }

    public func makeSystem(_ config: Config) throws -> SchemaSystem {
        try SchemaSystem(schema: specification, store: schema, parameters: config.parameters,
                         configuration: ModelConfiguration(trapPolicy: .record, behavior: config.parameters.behavior), stores: stores)
    }

    public func tearDown(_ system: inout SchemaSystem) { system.tearDown() }

    /// The same machine with its SQLite cases' store files in `folder`.
    public func usingScratchFolder(_ folder: String) -> SchemaMachine {
        var machine = self
        machine.stores = ScratchStores(folder: folder)
        return machine
    }
}

extension StoreParameters {
    /// The store's behaviour under these parameters (no faults).
    public var behavior: StoreBehavior {
        StoreBehavior(newModelLink: newModelLink == .trap ? .trap : .autoInsert,
                      temporaryIDAfterSave: temporaryIDAfterSave == .resolves ? .resolves : .unknown,
                      registeredAfterForeignDelete: registeredAfterForeignDelete == .stale ? .stale : .none,
                      replacedByUpsert: replacedByUpsert == .detached ? .detached : .invalidated,
                      readAfterSavedDelete: readAfterSavedDelete == .readable ? .readable : .traps,
                      denyWithoutInverse: denyWithoutInverse == .enforced ? .enforced : .ignored)
    }
}
