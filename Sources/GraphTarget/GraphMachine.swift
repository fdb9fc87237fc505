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
    /// Where the SQLite cases keep their store files.
    let stores: ScratchStores

    /// - Parameter scratchFolder: an existing folder for the SQLite cases' store files (nil: /dev/shm when the
    ///   machine has it, else the temporary directory).
    public init(mutant: GraphMutant? = nil, scratchFolder: String? = nil) {
        self.mutant = mutant
        stores = ScratchStores(folder: scratchFolder)
    }

    public func makeConfig(_ draw: Draw) -> GraphConfig {
        GraphConfig(schema: draw.chooseBool() ? .cloudKit : .local,
                    newModelLink: draw.chooseBool() ? .autoInsert : .trap,
                    temporaryIDAfterSave: draw.chooseBool() ? .unknown : .resolves,
                    registeredAfterForeignDelete: draw.chooseBool() ? .none : .stale,
                    backend: draw.chooseBool(probability: 0.1) ? .sqlite : .memory)
    }

    public func makeModel(_ config: GraphConfig) -> GraphModel { GraphModel(config: config) }
    public func makeSystem(_ config: GraphConfig) throws -> GraphSystem { try GraphSystem(config: config, mutant: mutant, stores: stores) }

    public func precondition(_ command: GraphCommand, _ model: GraphModel) -> Bool {
        model.allows(command) && model.leavesEarlierLaunches(command)
    }

    public func compare(_ expected: Prediction<GraphObservation>, _ observed: GraphObservation, _ step: TraceStep) -> Failure? {
        if expected.allows(observed) { return nil }
        if GraphObservation.identifierOnlyMismatch(expected.value, observed) {
            return Failure(rule: GraphRules.temporaryID, kind: .mismatch,
                           message: "\(step): expected \(expected.value), observed \(observed) (the new entry's identifier differs)")
        }
        if let rule = GraphObservation.refusalRule(expected.value, observed) {
            return Failure(rule: rule, kind: .mismatch,
                           message: "\(step): expected \(expected.value), observed \(observed) (the refusal's reasons differ)")
        }
        if GraphObservation.inverseOnlyMismatch(expected.value, observed) {
            // G7's, unless a failed save's delete rules left the pair half there (`GraphModel.pairRule`).
            let halfPair = [GraphRules.ownedKeepsEdition, GraphRules.deleteRulesAtSave].contains(expected.rule)
            return Failure(rule: halfPair ? expected.rule : GraphRules.inverses, kind: .mismatch,
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
    /// equal the specification's saved state (sorted, so order-independent): G19 after a save, G12 after a failed
    /// one, G25 after a killed one, G22 after a relaunch (`GraphModel.rowsRule`). After a save, rows that differ
    /// where its delete rules cascaded or nullified are G9's (`GraphModel.rowsBrokenRule`): the store rule that
    /// runs the delete rules at save, over the graph as it is then (B6 is the schema's choice of cascade, which the
    /// shipped schema always makes). After a relaunch on the SQLite backend, a damaged copy of the store file was refused with the
    /// typed error its damage predicts (G26). After a save that numbered rows following a relaunch, their
    /// permanent numbers lie above every number the store saved before (G27).
    public var invariants: [Invariant<GraphMachine>] {
        [
            Invariant("B7", decidedBy: { $0.checkRows ? "B7" : nil }) { model, system in
                guard model.checkRows else { return nil }
                let shipped = Self.predictedShippedViolations[model.config.schema]!
                guard shipped != system.cloudKit.shippedViolations else { return nil }
                return Failure(rule: "B7", kind: .invariant,
                               message: "CloudKit check of the shipped \(model.config.schema) schema: expected \(shipped), found \(system.cloudKit.shippedViolations)")
            },
            Invariant("G21", decidedBy: { $0.checkRows ? "G21" : nil }) { model, system in
                guard model.checkRows, !system.containerViolationsAgree else { return nil }
                let predicted = system.cloudKit.predictedContainerViolations
                let found = system.cloudKit.containerViolations
                return Failure(rule: "G21", kind: .invariant, message: "CloudKit check: expected \(predicted), found \(found)")
            },
            Invariant("G19", decidedBy: { $0.rowsRule }) { model, system in
                guard let decided = model.rowsRule, !system.rowsMatch(model) else { return nil }
                let expected = model.canonicalRows()
                let observed = system.canonicalRows()
                guard expected != observed else { return nil }
                let missing = expected.filter { !observed.contains($0) }, extra = observed.filter { !expected.contains($0) }
                let rule = model.rowsBrokenRule(differing: (missing + extra).map(\.name)) ?? decided
                return Failure(rule: rule, kind: .invariant,
                               message: "saved rows differ: missing \(missing.map(\.description)), unexpected \(extra.map(\.description))")
            },
            Invariant("G26", decidedBy: { $0.refusesDamagedCopies ? "G26" : nil }) { model, system in
                guard model.refusesDamagedCopies else { return nil }
                let predicted = StoreDamage.allCases.map(GraphModel.refusal)
                guard let observed = system.damagedRefusals else {
                    return Failure(rule: "G26", kind: .invariant,
                                   message: "damaged copies of the store file: expected refusals \(predicted) at this step's relaunch, but the system did not relaunch")
                }
                guard observed != predicted else { return nil }
                return Failure(rule: "G26", kind: .invariant,
                               message: "damaged copies of the store file (\(StoreDamage.allCases.map(\.rawValue))): expected refusals \(predicted), observed \(observed)")
            },
            Invariant("G27", decidedBy: { $0.numberedAfterRelaunch.isEmpty ? nil : "G27" }) { model, system in
                guard !model.numberedAfterRelaunch.isEmpty else { return nil }
                let reused = system.reusedNumbers(model.numberedAfterRelaunch.map { model.rowName(model.numberedID($0)).ref })
                guard !reused.isEmpty else { return nil }
                return Failure(rule: "G27", kind: .invariant,
                               message: "rows saved after a relaunch reuse numbers saved before: \(reused.joined(separator: ", "))")
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
               rules: GraphRules.all, mutants: GraphMutant.all, defaultSteps: 30, generatorVersion: "2") { mutant, scratchFolder in
            GraphMachine(mutant: mutant.flatMap(GraphMutant.init(rawValue:)), scratchFolder: scratchFolder)
        }
    }
}
