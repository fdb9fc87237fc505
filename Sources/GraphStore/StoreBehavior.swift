package import FaultPoints

/// How the store behaves where the evidence is unknown or conflicting (a parameter, fuzzed both ways by
/// the harness), and the store's faults (production has none; a mutant selects one). The faults have `package`
/// access: an app cannot select one, only this package's targets (FaultPoints).
public struct StoreBehavior: Sendable, Equatable {
    /// R10: linking a new (un-inserted) model to a registered one.
    public enum NewModelLink: String, Sendable, CaseIterable {
        /// "Illegal attempt to establish a relationship … between objects in different contexts".
        case trap
        /// The new model (and its new graph) is inserted into the registered model's context.
        case autoInsert
    }
    /// R4: looking up a temporary identifier held from before the save that made it permanent.
    public enum TemporaryIDAfterSave: String, Sendable, CaseIterable {
        /// The temporary identifier is remapped to the saved model.
        case resolves
        /// The temporary identifier is dead: unknown to every lookup.
        case unknown
    }
    /// R15: `registeredModel(for:)` for a model whose row another context's save deleted.
    public enum RegisteredAfterForeignDelete: String, Sendable, CaseIterable {
        /// Returns the stale model (reads trap).
        case stale
        /// Returns nil.
        case none
    }
    /// R7: the context's model of a saved row that a pending insert took over at save (upsert).
    public enum ReplacedByUpsert: String, Sendable, CaseIterable {
        /// It leaves the context as a model whose deletion was saved: values readable, changes trap.
        case detached
        /// Its backing data is gone: reads trap.
        case invalidated
    }
    /// R27 against field reports: reading a model whose deletion this context saved.
    public enum ReadAfterSavedDelete: String, Sendable, CaseIterable {
        /// Its values stay readable (R27).
        case readable
        /// Reads trap as for a model whose backing data is gone (Apple developer forums 776645, DataThespian #49).
        case traps
    }
    /// R21 against a field survey: a `.deny` relationship that declares no inverse.
    public enum DenyWithoutInverse: String, Sendable, CaseIterable {
        /// Enforced at save like any deny rule (R21).
        case enforced
        /// Not enforced: the save goes through (the delete-rule survey).
        case ignored
    }
    public var newModelLink: NewModelLink
    public var temporaryIDAfterSave: TemporaryIDAfterSave
    public var registeredAfterForeignDelete: RegisteredAfterForeignDelete
    public var replacedByUpsert: ReplacedByUpsert
    public var readAfterSavedDelete: ReadAfterSavedDelete
    public var denyWithoutInverse: DenyWithoutInverse
    /// The store's faults (production: `.shipped`), each a `Fault<StoreBehavior>` declared beside its branch.
    package var faults: Faults<StoreBehavior>

    public init(newModelLink: NewModelLink = .autoInsert, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale, replacedByUpsert: ReplacedByUpsert = .detached,
                readAfterSavedDelete: ReadAfterSavedDelete = .readable, denyWithoutInverse: DenyWithoutInverse = .enforced) {
        self.init(newModelLink: newModelLink, temporaryIDAfterSave: temporaryIDAfterSave, registeredAfterForeignDelete: registeredAfterForeignDelete,
                  replacedByUpsert: replacedByUpsert, readAfterSavedDelete: readAfterSavedDelete, denyWithoutInverse: denyWithoutInverse, faults: .shipped)
    }

    /// With faults: for this package's targets and tests only.
    package init(newModelLink: NewModelLink = .autoInsert, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale, replacedByUpsert: ReplacedByUpsert = .detached,
                readAfterSavedDelete: ReadAfterSavedDelete = .readable, denyWithoutInverse: DenyWithoutInverse = .enforced,
                faults: Faults<StoreBehavior>) {
        self.newModelLink = newModelLink
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
        self.replacedByUpsert = replacedByUpsert
        self.readAfterSavedDelete = readAfterSavedDelete
        self.denyWithoutInverse = denyWithoutInverse
        self.faults = faults
    }
}

/// A container's configuration: the trap policy and the behaviour.
public struct ModelConfiguration: Sendable, Equatable {
    public var trapPolicy: TrapPolicy
    public var behavior: StoreBehavior
    /// Names the store in permanent identifiers.
    public var storeIdentifier: String

    public init(trapPolicy: TrapPolicy = .crash, behavior: StoreBehavior = StoreBehavior(), storeIdentifier: String = "store") {
        self.trapPolicy = trapPolicy
        self.behavior = behavior
        self.storeIdentifier = storeIdentifier
    }
}
