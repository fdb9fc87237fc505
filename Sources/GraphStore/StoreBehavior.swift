/// How the store behaves where the evidence is unknown or conflicting (a parameter, fuzzed both ways by
/// the harness), and the store's strategy points (production keeps the defaults; a mutant selects another).
/// The strategy points have `package` access: an app cannot select a faulty one, only this package's targets.
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
    /// When identifiers become permanent.
    package enum IdentifierTiming: String, Sendable, CaseIterable { case atSave, atInsert }
    /// When delete rules (cascade, nullify) run.
    package enum DeleteRuleTiming: String, Sendable, CaseIterable { case atSave, atDelete }
    /// What a failed save leaves in the container.
    package enum FailedSave: String, Sendable, CaseIterable { case atomic, partial }
    /// Whether setting one side of a relationship updates its inverse.
    package enum InverseMaintenance: String, Sendable, CaseIterable { case maintained, none }

    public var newModelLink: NewModelLink
    public var temporaryIDAfterSave: TemporaryIDAfterSave
    public var registeredAfterForeignDelete: RegisteredAfterForeignDelete
    package var identifierTiming: IdentifierTiming
    package var deleteRuleTiming: DeleteRuleTiming
    package var failedSave: FailedSave
    package var inverseMaintenance: InverseMaintenance

    public init(newModelLink: NewModelLink = .autoInsert, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale) {
        self.init(newModelLink: newModelLink, temporaryIDAfterSave: temporaryIDAfterSave,
                  registeredAfterForeignDelete: registeredAfterForeignDelete, identifierTiming: .atSave)
    }

    /// With strategy points: for this package's targets and tests only.
    package init(newModelLink: NewModelLink = .autoInsert, temporaryIDAfterSave: TemporaryIDAfterSave = .resolves,
                registeredAfterForeignDelete: RegisteredAfterForeignDelete = .stale,
                identifierTiming: IdentifierTiming = .atSave, deleteRuleTiming: DeleteRuleTiming = .atSave,
                failedSave: FailedSave = .atomic, inverseMaintenance: InverseMaintenance = .maintained) {
        self.newModelLink = newModelLink
        self.temporaryIDAfterSave = temporaryIDAfterSave
        self.registeredAfterForeignDelete = registeredAfterForeignDelete
        self.identifierTiming = identifierTiming
        self.deleteRuleTiming = deleteRuleTiming
        self.failedSave = failedSave
        self.inverseMaintenance = inverseMaintenance
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
