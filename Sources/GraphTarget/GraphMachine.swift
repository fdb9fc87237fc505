import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The `graph` target: the object-graph specification stepped beside the store and the BooksTracker models.
public struct GraphMachine: StateMachine, SwiftExportable, Sendable {
    public typealias Config = GraphConfig
    public typealias Model = GraphModel
    public typealias System = GraphSystem

    /// What the machine's system runs with: production, or a mutant's faults.
    let faults: GraphFaults
    /// Where the SQLite cases keep their store files.
    let stores: ScratchStores

    public init() { self.init(faults: .shipped) }

    /// - Parameter scratchFolder: an existing folder for the SQLite cases' store files (nil: /dev/shm when the
    ///   machine has it, else the temporary directory).
    package init(faults: GraphFaults, scratchFolder: String? = nil) {
        self.faults = faults
        stores = ScratchStores(folder: scratchFolder)
    }

    /// The schema configuration and the unknown evidence, each fuzzed both ways; the SQLite backend one case in
    /// ten (traced only then: older traces read as the memory backend).
    public func makeConfig(_ args: inout Arguments) -> GraphConfig {
        GraphConfig(schema: args.enumeration("schema", SchemaConfiguration.self) { $0.chooseBool() ? .cloudKit : .local },
                    newModelLink: args.enumeration("newModelLink", NewModelLink.self) { $0.chooseBool() ? .autoInsert : .trap },
                    temporaryIDAfterSave: args.enumeration("temporaryIDAfterSave", TemporaryIDAfterSave.self) { $0.chooseBool() ? .unknown : .resolves },
                    registeredAfterForeignDelete: args.enumeration("registeredAfterForeignDelete", RegisteredAfterForeignDelete.self) {
                        $0.chooseBool() ? .none : .stale
                    },
                    backend: args.enumeration("backend", StoreBackend.self, default: .memory) { $0.chooseBool(probability: 0.1) ? .sqlite : .memory })
    }

    public func makeModel(_ config: GraphConfig) -> GraphModel { GraphModel(config: config) }
    public func makeSystem(_ config: GraphConfig) throws -> GraphSystem { try GraphSystem(config: config, faults: faults, stores: stores) }

    /// The rule and message of an observation the prediction does not allow, chosen by what differs.
    func compare(_ expected: Prediction<GraphObservation>, _ observed: GraphObservation, _ step: TraceStep) -> Failure? {
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
            Invariant("B7", when: { $0.checkRows }) { model, system in
                let shipped = Self.predictedShippedViolations[model.config.schema]!
                guard shipped != system.cloudKit.shippedViolations else { return nil }
                return "CloudKit check of the shipped \(model.config.schema) schema: expected \(shipped), found \(system.cloudKit.shippedViolations)"
            },
            Invariant("G21", when: { $0.checkRows }) { model, system in
                guard !system.containerViolationsAgree else { return nil }
                let predicted = system.cloudKit.predictedContainerViolations
                let found = system.cloudKit.containerViolations
                return "CloudKit check: expected \(predicted), found \(found)"
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
            Invariant("G26", when: { $0.refusesDamagedCopies }) { model, system in
                let predicted = StoreDamage.allCases.map(GraphModel.refusal)
                guard let observed = system.damagedRefusals else {
                    return "damaged copies of the store file: expected refusals \(predicted) at this step's relaunch, but the system did not relaunch"
                }
                guard observed != predicted else { return nil }
                return "damaged copies of the store file (\(StoreDamage.allCases.map(\.rawValue))): expected refusals \(predicted), observed \(observed)"
            },
            Invariant("G27", when: { !$0.numberedAfterRelaunch.isEmpty }) { model, system in
                let reused = system.reusedNumbers(model.numberedAfterRelaunch.map { model.rowName(model.numberedID($0)).ref })
                guard !reused.isEmpty else { return nil }
                return "rows saved after a relaunch reuse numbers saved before: \(reused.joined(separator: ", "))"
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
               rules: GraphRules.all, mutants: GraphMachine.mutants, defaultSteps: 30, generatorVersion: "2") { faults, scratchFolder in
            GraphMachine(faults: faults, scratchFolder: scratchFolder)
        }
    }
}
