import FaultPoints
import GraphFuzzEngine
import GraphSpec
import GraphStore
import GraphStoreRules

/// The `schemas` target: each case draws a schema (`SchemaShapes`) and then store operations on it, on either
/// backend, and the object-graph rules (G1–G28) judge every step. BooksTracker's schema is one point of this
/// space; the shapes it never declares (self-relationships, to-one paired with to-one, no inverse, cascade cycles,
/// deny chains, required relationships, entities without attributes or relationships) are the others.
public struct SchemasMachine: StateMachine, Sendable {
    /// A case's schema, then the store's parameters (each unknown evidence both ways; SQLite one case in ten).
    public struct Config: Sendable, Equatable {
        public var schema: GraphSchema
        public var parameters: StoreParameters
    }
    public typealias Model = GraphModel
    public typealias System = SchemaSystem

    /// The store's faults (production: none).
    let faults: Faults<StoreBehavior>
    /// Where the SQLite cases keep their store files.
    let stores: ScratchStores

    public init() { self.init(faults: .shipped) }

    /// - Parameter scratchFolder: an existing folder for the SQLite cases' store files (nil: the system's scratch
    ///   location).
    package init(faults: Faults<StoreBehavior>, scratchFolder: String? = nil) {
        self.faults = faults
        stores = ScratchStores(folder: scratchFolder)
    }

    public func makeConfig(_ args: inout Arguments) -> Config {
        let schema = SchemaShapes.draw(&args)
        var parameters = StoreParameters.draw(&args)
        parameters.drawForShapes(schema, &args)
        return Config(schema: schema, parameters: parameters)
    }

    /// Every case starts from an empty store: the schema and the store's parameters say how the steps run, never
    /// what was made before them.
    public var configurationStandsForSteps: Bool { false }

    public func makeModel(_ config: Config) -> GraphModel { GraphModel(schema: config.schema, parameters: config.parameters) }

    /// Throws when the drawn schema does not hold together for the store (`SchemaError`: a fault of the drawing,
    /// reported as the case's setup failure), or as `SchemaSystem` does.
    public func makeSystem(_ config: Config) throws -> SchemaSystem {
        let shipped = config.parameters.behavior
        let behavior = StoreBehavior(newModelLink: shipped.newModelLink, temporaryIDAfterSave: shipped.temporaryIDAfterSave,
                                     registeredAfterForeignDelete: shipped.registeredAfterForeignDelete, replacedByUpsert: shipped.replacedByUpsert,
                                     readAfterSavedDelete: shipped.readAfterSavedDelete, denyWithoutInverse: shipped.denyWithoutInverse, faults: faults)
        return try SchemaSystem(schema: config.schema, store: try Schema(config.schema), parameters: config.parameters,
                                configuration: ModelConfiguration(trapPolicy: .record, behavior: behavior), stores: stores)
    }

    public var actions: [Action<SchemasMachine>] {
        StoreActions.actions(perform: { command, system in try system.run(command, save: SchemaSystem.contextSave) })
    }

    /// G21: the store's CloudKit check of the case's schema lists exactly what the specification derives from it.
    public var invariants: [Invariant<SchemasMachine>] {
        [
            Invariant(GraphRules.cloudKitCheck) { _, system in
                guard !system.cloudKitAgrees else { return nil }
                return "CloudKit check: expected \(system.cloudKitPredicted), found \(system.cloudKitFound)"
            },
        ]
    }

    public func tearDown(_ system: inout SchemaSystem) { system.tearDown() }
}

extension SchemasMachine: ConfigDescribing {
    /// A failure's report declares the case's (shrunk) schema.
    public func describe(_ config: Config) -> [String] { config.schema.declaration }
}

extension SchemasMachine: Benchmarkable {
    package func isBenchmarked(_ config: Config) -> Bool { config.parameters.backend == .memory }
}

extension SchemasMachine {
    /// The schemas target's mutants: faults of the store that only some schemas reach.
    package static let mutants = MutantTable<Faults<StoreBehavior>>(shipped: .shipped, [
        Mutant(name: "store-self-link-skips-inverse", rule: "G7",
               summary: "Relating a model to itself leaves the inverse side unset (StoreBehavior fault selfLinkSkipsInverse)."):
         [.selfLinkSkipsInverse],
        Mutant(name: "store-one-to-one-keeps-partner", rules: ["G7", "G8", "G9", "G10", "G19", "G4", "G11"],
               summary: "Relating a to-one whose to-one inverse another model holds leaves that model pointing at the target (StoreBehavior fault oneToOneKeepsOldPartner).",
               reason: "the old partner keeps a pair its partner dropped (G7): a read of it, a delete's count of the partners holding it (G8), its row at the next save (G19, G9 when delete rules wrote it) a required or limited relationship it still fills at validation (G10), a deny relationship it still fills when it is deleted (G11), or its insert bringing the target along (G4) shows it"):
         [.oneToOneKeepsOldPartner],
        Mutant(name: "store-cascade-needs-inverse", rules: ["G9", "G10", "G19", "G8", "G11"],
               summary: "Cascade follows only relationships that declare an inverse (StoreBehavior fault cascadeNeedsInverse).",
               reason: "the destination the cascade skips (G9) stays: in the save's rows (G19), validated where the specification deleted it (G10), held by a deleted model's deny relationship where the specification deleted it (G11), or, after a failed save, without the pending delete mark a state read or a later delete's count shows (G8)"):
         [.cascadeNeedsInverse],
        Mutant(name: "store-unique-inserts-new-row", rule: "G28",
               summary: "An insert whose unique value a saved row holds gets a row of its own instead of taking that row over (StoreBehavior fault uniqueInsertsNewRow)."):
         [.uniqueInsertsNewRow],
        Mutant(name: "store-detached-reads-readable", rule: "G18",
               summary: "A model whose deletion was saved stays readable whatever readAfterSavedDelete says (StoreBehavior fault detachedReadsIgnoreParameter)."):
         [.detachedReadsIgnoreParameter],
        Mutant(name: "store-deny-without-inverse-enforced", rules: ["G11", "G19", "G10"],
               summary: "A deny rule without an inverse is enforced whatever denyWithoutInverse says (StoreBehavior fault denyWithoutInverseEnforced).",
               reason: "under denyWithoutInverse: ignored (G11) the save the specification lets through fails with 1600: its outcome differs (G19), or its issues when it fails for others too (G10)"):
         [.denyWithoutInverseEnforced],
        Mutant(name: "store-nullify-without-inverse", rules: ["G9", "G10", "G19", "G7"],
               summary: "At save, deleted models leave the relationships without an inverse that hold them instead of dangling there (StoreBehavior fault nullifyWithoutInverse).",
               reason: "the dangling pair the save keeps (G9) is gone: the holder's row (G9, or G19 at a later save), a required relationship it emptied at validation (G10) or a later read of it (G7) shows it"):
         [.nullifyWithoutInverse],
    ])
}

extension Target {
    /// The object-graph rules over drawn schemas against GraphStore.
    public static var schemas: Target {
        Target(name: "schemas",
               summary: "SwiftData-shaped store over drawn schemas (2–6 entities, any relationship shape) against the object-graph specification (G1–G28)",
               rules: GraphRules.all, mutants: SchemasMachine.mutants, defaultSteps: 30, generatorVersion: "2") { faults, scratchFolder in
            SchemasMachine(faults: faults, scratchFolder: scratchFolder)
        }
    }
}
