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
    public var newModelLink: NewModelLink
    public var temporaryIDAfterSave: TemporaryIDAfterSave
    public var registeredAfterForeignDelete: RegisteredAfterForeignDelete
    /// The store's faults (production: `.shipped`), each a `Fault<StoreBehavior>` declared beside its branch.
    package var faults: Faults<StoreBehavior>

    public init(newModelLink: NewModelLink = .autoInsert, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale) {
        self.init(newModelLink: newModelLink, temporaryIDAfterSave: temporaryIDAfterSave,
                  registeredAfterForeignDelete: registeredAfterForeignDelete, faults: .shipped)
    }

    /// With faults: for this package's targets and tests only.
    package init(newModelLink: NewModelLink = .autoInsert, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale, faults: Faults<StoreBehavior>) {
        self.newModelLink = newModelLink
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
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
