/// A fetch of the package's own code, answered from the rows without making models of rows it does not match.
package enum ModelQuery: Sendable, Equatable {
    /// The model with this identifier, if its row exists or it is a pending insert of this context.
    case identifier(PersistentIdentifier)
    /// Models of `entity` whose attribute `attribute` equals `value` (pending changes included).
    case attribute(entity: String, attribute: String, equals: AttributeValue)
    /// Models of `entity` whose list attribute `attribute` contains `element` (pending changes included),
    /// like SwiftData's `#Predicate { $0.tags.contains(element) }`.
    case contains(entity: String, attribute: String, element: String)
    /// Every model of `entity` (pending changes included), like a `FetchDescriptor` without predicate.
    case all(entity: String)
}

extension ModelContext {
    /// The model with `id`: the registered one, a model made from the saved row, or — never nil — a placeholder
    /// whose reads trap when no row exists (R14). A temporary identifier held across its save follows R4.
    public func model(for id: PersistentIdentifier) -> PersistentModel {
        let resolved = container.resolve(id)
        if let model = registry[resolved] { return model }
        if !resolved.isTemporary, container.row(resolved) != nil { return materialize(resolved) }
        return placeholder(for: resolved)
    }

    /// The model with `id` if this context holds it, without reading the store (R15).
    public func registeredModel(for id: PersistentIdentifier) -> PersistentModel? {
        guard let model = registry[container.resolve(id)] else { return nil }
        if model.lifecycle == .invalidated, behavior.registeredAfterForeignDelete == .none { return nil }
        return model
    }

    /// The models matching `query` (R16): saved rows as they are in the store, overlaid with this context's
    /// registered models; pending inserts included; pending deletes still included (R18).
    package func fetch(_ query: ModelQuery) -> [PersistentModel] {
        switch query {
        case .identifier(let id):
            let resolved = container.resolve(id)
            if let model = registry[resolved], model.isPendingInsert { return [model] }
            guard !resolved.isTemporary, container.row(resolved) != nil else { return [] }
            return [materialize(resolved)]
        case .attribute(let entityName, let attributeName, let value):
            return fetch(entityName, attributeName) { $0 == value }
        case .contains(let entityName, let attributeName, let element):
            return fetch(entityName, attributeName) { $0.stringsValue?.contains(element) ?? false }
        case .all(let entityName):
            return fetch(entityName, nil) { _ in true }
        }
    }

    /// Pending inserts of `entityName` whose `attributeName` matches, then saved rows in identifier order,
    /// overlaid with this context's registered models (their values, pending changes included).
    private func fetch(_ entityName: String, _ attributeName: String?, _ matches: (AttributeValue) -> Bool) -> [PersistentModel] {
        guard let entity = container.schema.entityIndex(named: entityName) else { return [] }
        var attribute = -1
        if let attributeName {
            guard let index = container.schema.entities[entity].attributeIndex(named: attributeName) else { return [] }
            attribute = index
        }
        func test(_ values: [AttributeValue]) -> Bool { attribute < 0 || matches(values[attribute]) }
        var results = inserted.filter { $0.entityIndex == entity && test($0.values) }
        for id in container.rowIDs(entity) {
            if let model = registry[id] {
                if test(model.values) { results.append(model) }
            } else if let row = container.row(id), test(row.values) {
                results.append(materialize(id))
            }
        }
        return results
    }

    /// Registers the model of a saved row and, eagerly, of every row it links to.
    func materialize(_ id: PersistentIdentifier) -> PersistentModel {
        if let model = registry[id] { return model }
        guard let row = container.row(id) else { return placeholder(for: id) }
        let model = container.schema.models.madeForRow(row.entity)
        model.entityIndex = row.entity
        model.container = container
        model.modelContext = self
        model.lifecycle = .registered
        model.identifier = id
        model.values = row.values
        registry[id] = model
        container.registeredEver.append(model)
        model.links = row.links.map { targets in targets.map { materialize($0) } }
        return model
    }

    func placeholder(for id: PersistentIdentifier) -> PersistentModel {
        let entity = container.schema.entityIndex(named: id.entityName) ?? 0
        let model = container.schema.models.madeForRow(entity)
        model.values = model.entity.defaultValues
        model.entityIndex = entity
        model.container = container
        model.identifier = id
        model.lifecycle = .invalidated
        return model
    }

    /// The models the pending deletes remove once delete rules have run (cascade closure), without running them.
    package func pendingDeletionClosure() -> [PersistentModel] {
        var result = deleted
        var seen = Set(result.map(ObjectIdentifier.init))
        var index = 0
        while index < result.count {
            let model = result[index]
            index += 1
            let schema = container.schema.entities[model.entityIndex]
            for (r, relationship) in schema.relationships.enumerated() where relationship.deleteRule == .cascade {
                for target in model.links[r] where target.modelContext === self && target.lifecycle == .registered {
                    if seen.insert(ObjectIdentifier(target)).inserted { result.append(target) }
                }
            }
        }
        return result
    }
}
