package import FaultPoints

/// A scratch pad over a container: registered models and their pending inserts, changes and deletes.
public final class ModelContext {
    public let container: ModelContainer
    var registry: [PersistentIdentifier: PersistentModel] = [:]
    var inserted: [PersistentModel] = []
    var changed: [PersistentModel] = []
    var deleted: [PersistentModel] = []

    public init(_ container: ModelContainer) {
        self.container = container
        container.contexts.append(self)
    }

    var behavior: StoreBehavior { container.configuration.behavior }

    /// Whether anything is pending.
    public var hasChanges: Bool { !inserted.isEmpty || !changed.isEmpty || !deleted.isEmpty }
    public var insertedModelsArray: [PersistentModel] { inserted }
    public var changedModelsArray: [PersistentModel] { changed.filter { !$0.isPendingInsert } }
    public var deletedModelsArray: [PersistentModel] { deleted }

    // MARK: Insert

    /// Inserts `model` and every new model related to it (R8). Inserting a registered model traps (R9). A new model
    /// takes the container's schema first: the relationships its initializer set are linked then (R10 applies: a new
    /// model linked to a registered one traps or is inserted by the link, and its insert then traps, R9).
    public func insert(_ model: PersistentModel) {
        if model.schemaModels == nil { container.schema.adopt(model) }
        switch model.lifecycle {
        case .invalidated:
            model.raise(.invalidated(model.describeID()))
            return
        case .detached:
            model.raise(.mutatingDeleted(model.describeID()))
            return
        case .registered:
            if model.modelContext === self {
                container.raise(.duplicateRegistration(model.describeID()))
            } else {
                container.raise(.secondContext(model.describeID()))
            }
            return
        case .new:
            insertGraph(model)
        }
    }

    /// Registers a new model and, recursively, the new models it links to.
    func insertGraph(_ model: PersistentModel) {
        guard model.lifecycle == .new else { return }
        guard let entity = container.schema.entityIndex(named: model.entity.name) else {
            preconditionFailure("\(model.entity.name) is not in the container's schema")
        }
        if model.schemaModels !== container.schema.models {
            model.entity = container.schema.entities[entity]
            model.schemaModels = container.schema.models
        }
        model.entityIndex = entity
        model.container = container
        model.modelContext = self
        model.lifecycle = .registered
        model.isPendingInsert = true
        let id = behavior.faults.selects(.permanentIdentifiersAtInsert) ? container.permanentID(entity) : container.temporaryID(entity)
        model.identifier = id
        // Room for a few models at the first insert: a context's registry otherwise grows (and rehashes) at 1, 2, 4.
        if registry.capacity == 0 { registry = Dictionary(minimumCapacity: 8) }
        registry[id] = model
        inserted.append(model)
        container.registeredEver.append(model)
        for relationship in model.links {
            for target in relationship where target.lifecycle == .new { insertGraph(target) }
        }
    }

    // MARK: Delete

    /// Marks `model` deleted; delete rules run at save (R18, R19). A model this context does not hold is ignored.
    public func delete(_ model: PersistentModel) {
        if model.lifecycle == .invalidated, model.modelContext === self {
            model.raise(.invalidated(model.describeID()))
            return
        }
        guard model.modelContext === self, model.lifecycle == .registered, !model.isPendingDelete else { return }
        markDeleted(model)
        if behavior.faults.selects(.deleteRulesAtDelete) { propagateDeletes(from: deleted.count - 1) }
    }

    func markDeleted(_ model: PersistentModel) {
        model.isPendingDelete = true
        deleted.append(model)
    }

    /// Runs delete rules for `deleted[start...]`, growing the list with cascaded models. Nullify (G9, R20) removes
    /// every deleted model from its partners: the pairs are taken before any is removed, so two deleted models that
    /// nullify each other both lose the other whatever order they were deleted in.
    func propagateDeletes(from start: Int) {
        var index = start
        while index < deleted.count {
            let model = deleted[index]
            index += 1
            for (r, relationship) in container.schema.entities[model.entityIndex].relationships.enumerated() where relationship.deleteRule == .cascade {
                if relationship.inverse == nil && behavior.faults.selects(.cascadeNeedsInverse) { continue }
                for target in model.links[r] where target.modelContext === self && target.lifecycle == .registered && !target.isPendingDelete {
                    markDeleted(target)
                }
            }
        }
        var nullified: [(target: PersistentModel, inverse: Int, model: PersistentModel)] = []
        for model in deleted[start...] where model.maintainsInverses {
            let schema = container.schema.entities[model.entityIndex]
            for (r, relationship) in schema.relationships.enumerated() where relationship.deleteRule == .nullify {
                guard let inverse = schema.inverseIndex[r] else { continue }
                for target in model.links[r] where target.lifecycle == .registered { nullified.append((target, inverse, model)) }
            }
        }
        for pair in nullified { pair.target.removeLink(pair.inverse, pair.model) }
        if behavior.faults.selects(.nullifyWithoutInverse) { removeDangling(deleted[start...]) }
    }

    /// The `nullifyWithoutInverse` fault: the context's models drop the deleted models from their relationships
    /// that declare no inverse.
    private func removeDangling(_ models: ArraySlice<PersistentModel>) {
        for id in registry.keys.sorted(by: { $0.description < $1.description }) {
            guard let holder = registry[id] else { continue }
            for (r, relationship) in holder.entity.relationships.enumerated() where relationship.inverse == nil {
                for model in models where holder.links[r].contains(where: { $0 === model }) { holder.removeLink(r, model) }
            }
        }
    }

    // MARK: Rollback

    /// Discards pending inserts (unregistered, identifier dropped), restores pending deletes and returns changed
    /// models to their committed values (R32).
    public func rollback() {
        for model in changed where model.isChangeTracked {
            if let committed = model.committed {
                model.values = committed.values
                model.links = committed.links
            }
            model.committed = nil
            model.isChangeTracked = false
        }
        for model in deleted { model.isPendingDelete = false }
        for model in inserted { discard(model) }
        inserted = []
        changed = []
        deleted = []
    }

    /// Takes a pending insert out of the context: it is new again, without identifier or relationships.
    func discard(_ model: PersistentModel) {
        if let id = model.identifier { registry[id] = nil }
        model.identifier = nil
        model.modelContext = nil
        model.lifecycle = .new
        model.isPendingInsert = false
        model.isPendingDelete = false
        model.isChangeTracked = false
        model.committed = nil
        model.links = model.entity.emptyLinks
    }

    func forgetAll() {
        registry = [:]
        inserted = []
        changed = []
        deleted = []
    }
}

extension Fault<StoreBehavior> {
    /// Mutant `store-permanent-on-insert`: identifiers are permanent from insert on (G2).
    package static var permanentIdentifiersAtInsert: Self { Self() }
    /// Mutant `store-eager-delete-rules`: cascade and nullify run inside `delete()` instead of at save (G8, G9).
    package static var deleteRulesAtDelete: Self { Self() }
    /// Mutant `store-cascade-needs-inverse`: cascade follows only relationships that declare an inverse (G9).
    package static var cascadeNeedsInverse: Self { Self() }
    /// Mutant `store-nullify-without-inverse`: at save, the deleted models leave the relationships without an
    /// inverse that hold them, instead of dangling there (G9).
    package static var nullifyWithoutInverse: Self { Self() }
}
