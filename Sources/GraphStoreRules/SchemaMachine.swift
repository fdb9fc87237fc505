import GraphFuzzEngine
import GraphSpec
import GraphStore

/// A machine that checks the object-graph rules (G1–G28, `GraphRules`) against GraphStore for your models: it
/// creates, inserts, relates, sets, deletes, saves, rolls back, looks up, reads, fetches and relaunches over your
/// entities, and predicts each step from the rules. Your app's own actions (`AppAction`) run your code — its
/// factories, deletion flows, mappers — beside them, each predicted from its description under your rule; your app's
/// invariants (`AppInvariant`) are checked after every step. `GraphFuzzTest.check(machine)` runs it.
///
///     let machine = try SchemaMachine(for: Group.self, Task.self, name: "todo", actions: [addTask, deleteList])
///
/// The schema's CloudKit check (G21) runs on every case; with `cloudKit: true` the schema must also pass it (R23,
/// R24), and a failure lists its violations.
public struct SchemaMachine: StateMachine, RuleDeclaring, Sendable {
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
    let appActions: [AppAction]
    let appInvariants: [AppInvariant]
    /// Where the SQLite cases' store files go: the system's scratch location, or the folder the harness gives
    /// (`usingScratchFolder`: a worker's own, removed when it dies).
    private(set) var stores: ScratchStores

    /// - Parameters:
    ///   - schema: your schema (`Schema([Group.self, Task.self])`).
    ///   - name: its name in reports.
    ///   - cloudKit: whether the schema must pass the CloudKit check (R23, R24).
    ///   - actions: your app's actions, drawn beside the store's.
    ///   - invariants: your app's invariants, after G21.
    public init(_ schema: Schema, name: String = "schema", cloudKit: Bool = false, actions: [AppAction] = [], invariants: [AppInvariant] = []) {
        self.schema = schema
        self.specification = GraphSchema(schema, name: name)
        self.cloudKit = cloudKit
        self.appActions = actions
        self.appInvariants = invariants
        self.stores = ScratchStores()
    }

    /// The machine for the schema of `modelClasses` (and the classes their relationships lead to). Throws when the
    /// declarations do not make a schema.
    public init(for modelClasses: PersistentModel.Type..., name: String = "schema", cloudKit: Bool = false, actions: [AppAction] = [],
                invariants: [AppInvariant] = []) throws(SchemaError) {
        self.init(try Schema(modelClasses), name: name, cloudKit: cloudKit, actions: actions, invariants: invariants)
    }

    public var actions: [Action<SchemaMachine>] {
        StoreActions.actions(perform: { command, system in try system.run(command, save: SchemaSystem.contextSave) })
            + appActions.map { $0.build(schema) }
    }

    /// The rules the machine decides: the store's (G28 only for a schema with a unique attribute), then each app
    /// action's and invariant's, in order.
    public var rules: [Rule] {
        var appRules: [String] = []
        for rule in appActions.map(\.rule) + appInvariants.map(\.rule) where !appRules.contains(rule) { appRules.append(rule) }
        return GraphRules.store + (schema.hasUniqueAttributes ? GraphRules.unique : []) + GraphRules.launch
            + appRules.map { Rule(id: $0, statement: "an app rule of the \(specification.name) schema", source: "app", confidence: "") }
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
        ] + appInvariants.map { invariant in
            Invariant(invariant.rule) { _, system in invariant.check(AppModels(system, making: nil)) }
        }
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
