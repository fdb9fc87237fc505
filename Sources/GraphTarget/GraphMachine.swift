import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The `graph` target: the object-graph specification stepped beside the store and the BooksTracker models.
public struct GraphMachine: StateMachine, SwiftExportable, Sendable {
    public typealias Config = GraphConfig
    public typealias Model = GraphModel
    public typealias System = GraphSystem
    public typealias Command = GraphCommand
    public typealias Observation = GraphObservation

    public let mutant: GraphMutant?

    public init(mutant: GraphMutant? = nil) { self.mutant = mutant }

    public func makeConfig(_ draw: Draw) -> GraphConfig {
        GraphConfig(schema: draw.chooseBool() ? .cloudKit : .local,
                    newModelLink: draw.chooseBool() ? .autoInsert : .trap,
                    temporaryIDAfterSave: draw.chooseBool() ? .unknown : .resolves,
                    registeredAfterForeignDelete: draw.chooseBool() ? .none : .stale,
                    backend: draw.chooseBool(probability: 0.1) ? .sqlite : .memory)
    }

    public func makeModel(_ config: GraphConfig) -> GraphModel { GraphModel(config: config) }
    public func makeSystem(_ config: GraphConfig) throws -> GraphSystem { try GraphSystem(config: config, mutant: mutant) }

    public func precondition(_ command: GraphCommand, _ model: GraphModel) -> Bool {
        model.allows(command) && model.leavesEarlierLaunches(command)
    }

    public func compare(_ expected: Prediction<GraphObservation>, _ observed: GraphObservation, _ step: TraceStep) -> Failure? {
        if expected.allows(observed) { return nil }
        if GraphObservation.identifierOnlyMismatch(expected.value, observed) {
            return Failure(rule: GraphRules.temporaryID, kind: .mismatch,
                           message: "\(step): expected \(expected.value), observed \(observed) (the new entry's identifier differs)")
        }
        if GraphObservation.inverseOnlyMismatch(expected.value, observed) {
            return Failure(rule: GraphRules.inverses, kind: .mismatch,
                           message: "\(step): expected \(expected.value), observed \(observed) (the inverse side differs)")
        }
        if case .trap(let code) = observed, !expected.value.isTrap {
            return Failure(rule: expected.rule, kind: .trap,
                           message: "\(step): the store trapped (\(code)) where the specification expects \(expected.value)",
                           detail: code)
        }
        return Failure(rule: expected.rule, kind: .mismatch, message: "\(step): expected \(expected.value), observed \(observed)")
    }

    /// After a save step: the shipped schema configuration passes or fails the CloudKit check as predicted (B7),
    /// the check lists what the specification derives from the container's schema (G21), and the container's rows
    /// equal the specification's saved state (sorted, so order-independent; G19, or G12/G9 for what broke them).
    /// Rows that differ after a save whose cascade reached models not deleted directly are G9's: the store rule
    /// that runs the delete rules at save, over the graph as it is then (B6 is the schema's choice of cascade,
    /// which the shipped schema always makes).
    public var invariants: [Invariant<GraphMachine>] {
        [
            Invariant("B7") { model, system in
                guard model.checkRows else { return nil }
                let shipped = Self.predictedShippedViolations[model.config.schema]!
                guard shipped != system.cloudKit.shippedViolations else { return nil }
                return Failure(rule: "B7", kind: .invariant,
                               message: "CloudKit check of the shipped \(model.config.schema) schema: expected \(shipped), found \(system.cloudKit.shippedViolations)")
            },
            Invariant("G21") { model, system in
                guard model.checkRows, !system.containerViolationsAgree else { return nil }
                let predicted = system.cloudKit.predictedContainerViolations
                let found = system.cloudKit.containerViolations
                return Failure(rule: "G21", kind: .invariant, message: "CloudKit check: expected \(predicted), found \(found)")
            },
            Invariant("G19") { model, system in
                guard model.checkRows, !system.rowsMatch(model) else { return nil }
                let expected = model.canonicalRows()
                let observed = system.canonicalRows()
                guard expected != observed else { return nil }
                let rule = model.lastSave == .killed ? GraphRules.atomicSave
                    : model.lastSave == .failed ? "G12" : (model.cascadedFromWork ? GraphRules.deleteRulesAtSave : "G19")
                let missing = expected.filter { !observed.contains($0) }.map(\.description)
                let extra = observed.filter { !expected.contains($0) }.map(\.description)
                return Failure(rule: rule, kind: .invariant, message: "saved rows differ: missing \(missing), unexpected \(extra)")
            },
        ]
    }

    /// B7's prediction: the specification's CloudKit check of the shipped schema, a pure function of the schema
    /// configuration, taken once per process instead of after every save.
    private static let predictedShippedViolations = Dictionary(uniqueKeysWithValues: SchemaConfiguration.allCases.map {
        ($0, BooksEntities.cloudKitViolations($0))
    })

    public func tearDown(_ system: inout GraphSystem) {
        system.container.tearDown()
        // Models never inserted may link to each other; the container does not know them.
        for model in system.refs { model?.breakReferenceCycles() }
        system.closeStore()
    }
}

extension Target {
    /// The object-graph store and the BooksTracker models against their executable specification.
    public static var graph: Target {
        Target(name: "graph",
               summary: "SwiftData-shaped store and seed 004's BooksTracker models against the object-graph specification (G1–G27, B1–B7)",
               rules: GraphRules.all, mutants: GraphMutant.all, defaultSteps: 30, generatorVersion: "2") { mutant in
            GraphMachine(mutant: mutant.flatMap(GraphMutant.init(rawValue:)))
        }
    }
}
