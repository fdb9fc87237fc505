import BooksSpec
import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore
import GraphStoreRules

/// The `graph` target: the object-graph rules over the BooksTracker schema (`StoreActions`), with the library's
/// domain operations and rules (B1–B8) layered on top, stepped beside the store and the BooksTracker models.
public struct GraphMachine: StateMachine, SwiftExportable, Sendable {
    public typealias Config = GraphConfig
    public typealias Model = GraphModel
    public typealias System = GraphSystem

    /// What the machine's system runs with: production, or a mutant's faults.
    let faults: GraphFaults
    /// Where the SQLite cases keep their store files.
    let stores: ScratchStores
    /// The background actor's concurrent steps (`concurrentActions`): two at once always (one alone finds nothing a
    /// sequential step does not), in a random walk among their jobs.
    public var concurrentSteps = ConcurrentSteps(groupProbability: 1, maxBranches: 2, strategy: .randomWalk)

    public init() { self.init(faults: .shipped) }

    /// - Parameter scratchFolder: an existing folder for the SQLite cases' store files (nil: /dev/shm when the
    ///   machine has it, else the temporary directory).
    package init(faults: GraphFaults, scratchFolder: String? = nil) {
        self.faults = faults
        stores = ScratchStores(folder: scratchFolder)
    }

    /// The schema configuration, then the store's parameters (each unknown evidence both ways; the SQLite backend
    /// one case in ten, traced only then).
    public func makeConfig(_ args: inout Arguments) -> GraphConfig {
        GraphConfig(schema: args.enumeration("schema", SchemaConfiguration.self) { $0.chooseBool() ? .cloudKit : .local },
                    parameters: StoreParameters.draw(&args))
    }

    /// Every case starts from an empty store: the schema and the store's parameters say how the steps run, never
    /// what was made before them.
    public var configurationStandsForSteps: Bool { false }

    public func makeModel(_ config: GraphConfig) -> GraphModel { GraphModel(schema: BooksEntities.schema(config.schema), parameters: config.parameters) }
    public func makeSystem(_ config: GraphConfig) throws -> GraphSystem { try GraphSystem(config: config, faults: faults, stores: stores) }

    public var actions: [Action<GraphMachine>] {
        Self.actions(store: { command, system in try system.run(command) }, books: { command, system in system.run(command) },
                     swiftLines: swiftLines, booksSwiftLines: swiftLines) + concurrentActions
    }

    /// After every step: the shipped schema configuration passes or fails the CloudKit check as predicted (B7), and
    /// the check of the container's schema lists what the specification derives from that schema (G21). Both are
    /// pure functions of the case's configuration, taken when the case starts.
    public var invariants: [Invariant<GraphMachine>] {
        [
            Invariant(BooksRules.shippedSchemas) { model, system in
                let shipped = Self.predictedShippedViolations[model.schema.name == SchemaConfiguration.local.rawValue ? 0 : 1]
                guard shipped != system.shippedViolations else { return nil }
                return "CloudKit check of the shipped \(model.schema.name) schema: expected \(shipped), found \(system.shippedViolations)"
            },
            Invariant(GraphRules.cloudKitCheck) { _, system in
                // The stored pair alone: through `system.store`, a computed property (`cloudKitAgrees`) copies the store's
                // whole state, after every step.
                let check = system.store.cloudKit
                guard check.found != check.predicted else { return nil }
                return "CloudKit check: expected \(check.predicted), found \(check.found)"
            },
        ]
    }

    /// B7's prediction per configuration (local, cloudKit): the specification's CloudKit check of the shipped schema.
    private static let predictedShippedViolations = [BooksEntities.cloudKitViolations(.local), BooksEntities.cloudKitViolations(.cloudKit)]

    public func tearDown(_ system: inout GraphSystem) { system.store.tearDown() }

    /// The schemas every case reads, for both configurations: the specification's, and the store's derived from the
    /// model classes with their CloudKit checks for this machine's delete rule (`GraphSystem`).
    public func prepare() {
        for configuration in BooksConfiguration.allCases { _ = CloudKitFindings.of(configuration, faults.editionEntriesRule) }
        for configuration in SchemaConfiguration.allCases { _ = BooksEntities.schema(configuration) }
        _ = Self.predictedShippedViolations
    }
}

extension Target {
    /// The object-graph store and the BooksTracker models against their executable specification.
    public static var graph: Target {
        Target(name: "graph",
               summary: "SwiftData-shaped store and seed 004's BooksTracker models against the object-graph specification (G1–G27, B1–B9)",
               rules: BooksRules.all, mutants: GraphMachine.mutants, defaultSteps: 30, generatorVersion: "4") { faults, scratchFolder in
            GraphMachine(faults: faults, scratchFolder: scratchFolder)
        }
    }
}
