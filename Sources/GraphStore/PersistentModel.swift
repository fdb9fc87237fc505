package import FaultPoints

/// The lifecycle of a model's backing data.
public enum ModelLifecycle: String, Sendable {
    /// Never inserted, or discarded by rollback or by deleting a pending insert: no context, no identifier (R1).
    case new
    /// Registered in a context.
    case registered
    /// Deleted, and the deletion saved: no context, values still readable, changes trap (R18, R27).
    case detached
    /// Its row no longer exists (a placeholder from `model(for:)`, or a row another context deleted): reads trap (R14, R28).
    case invalidated
}

/// The base class of models, SwiftData's `@Model`: a model is a subclass whose stored properties are declared
/// `@Attribute` or `@Relationship` (`@Transient` for one that is not persisted), with `required init() {}` beside
/// an initializer of its own:
///
///     final class Edition: PersistentModel {
///         @Attribute var isbn: String? = nil
///         @Relationship var work: Work? = nil
///         init(isbn: String?) { self.isbn = isbn }
///         required init() {}
///     }
///
/// (A property of optional type, or one whose wrapper has arguments, needs an initial value: Swift initializes such
/// a wrapper at its declaration.)
///
/// A container's `Schema` derives the entity from the class. A new model keeps its values in its properties; a
/// context that takes it (or a relationship to a model that has a schema) gives it its entity, and from then on
/// every read and write goes through the store's storage, so a read of an invalidated model traps (R14).
open class PersistentModel {
    /// The entity, once the model has a schema (an empty one before).
    package internal(set) final var entity: EntitySchema
    /// The schema the model took its entity from (nil for a new model of a class whose objects keep their values in
    /// their properties until then).
    final var schemaModels: SchemaModels?
    final var values: [AttributeValue]
    final var links: [[PersistentModel]]
    final var committed: (values: [AttributeValue], links: [[PersistentModel]])?
    public internal(set) final var lifecycle: ModelLifecycle = .new
    /// The context that holds the model; nil before insert (R1), after a saved delete and after rollback of an insert.
    public internal(set) final var modelContext: ModelContext?
    /// The container whose traps this model raises (kept after the model leaves its context).
    final var container: ModelContainer?
    final var identifier: PersistentIdentifier?
    /// The permanent identifier a save in progress gives this pending insert (set while the save is planned).
    final var plannedIdentifier: PersistentIdentifier?
    /// The entity's index in the container's schema, set at registration.
    final var entityIndex = -1
    final var isPendingInsert = false
    final var isPendingDelete = false
    final var isChangeTracked = false

    /// A new model: every declared property at its initial value. A schema makes models of a class through this
    /// initializer (a subclass with an initializer of its own declares `required init() {}`).
    public required init() {
        entity = EntitySchema.withoutSchema
        values = []
        links = []
    }

    // MARK: Identity and state

    /// The identifier: nil before insert (R1), temporary until the first save (R2), then permanent.
    public final var persistentModelID: PersistentIdentifier? { identifier }
    /// Marked for deletion and not yet saved (false again after the save, R18).
    public final var isDeleted: Bool { isPendingDelete }
    /// Changed since the last save (a pending insert counts).
    public final var hasChanges: Bool { isPendingInsert || isPendingDelete || isChangeTracked }

    // MARK: Attributes

    /// The attribute at `index`. Traps when the backing data no longer exists.
    @usableFromInline
    package final func value(at index: Int) -> AttributeValue {
        if lifecycle == .invalidated || (lifecycle == .detached && readsTrapWhenDetached) {
            raise(.invalidated(describeID()))
            return entity.attributes[index].defaultValue
        }
        return values[index]
    }

    /// Sets the attribute at `index`; traps on an invalidated model or one whose deletion was saved.
    @usableFromInline
    package final func setValue(_ value: AttributeValue, at index: Int) {
        if lifecycle == .new {
            // No context: nothing to check or track (an initializer setting its attributes).
            values[index] = value
            return
        }
        guard checkWritable() else { return }
        if values[index] == value { return }
        willChange()
        values[index] = value
    }

    // MARK: Relationships

    /// The models at relationship `index` (to-one: zero or one). Traps when the backing data no longer exists.
    @usableFromInline
    package final func related(_ index: Int) -> [PersistentModel] {
        if lifecycle == .invalidated || (lifecycle == .detached && readsTrapWhenDetached) {
            raise(.invalidated(describeID()))
            return []
        }
        return links[index]
    }

    /// Sets a to-one relationship, or adds to a to-many one; maintains the inverse (R11). Linking models of two
    /// contexts traps; linking a new model to a registered one traps or inserts it (R10).
    package final func relate(_ index: Int, to target: PersistentModel) {
        if target.schemaModels == nil, let schemaModels { schemaModels.adopt(target) }
        guard checkWritable(), target.checkWritable() else { return }
        let relationship = entity.relationships[index]
        switch (modelContext, target.modelContext) {
        case (nil, nil): link(index, target)
        case (let source?, let destination?):
            guard source === destination else {
                source.container.raise(.crossContext(relationship.name, describeID(), target.describeID()))
                return
            }
            link(index, target)
        case (let context?, nil), (nil, let context?):
            let newModel = modelContext == nil ? self : target
            guard context.container.configuration.behavior.newModelLink == .autoInsert else {
                context.container.raise(.crossContext(relationship.name, describeID(), target.describeID()))
                return
            }
            link(index, target)
            context.insertGraph(newModel)
        }
    }

    /// Removes `target` from relationship `index` (a to-one is set to nil if it holds `target`), and the inverse.
    package final func unrelate(_ index: Int, from target: PersistentModel) {
        guard checkWritable(), target.checkWritable() else { return }
        guard links[index].contains(where: { $0 === target }) else { return }
        removeLink(index, target)
        if let inverse = inverseIndex(index, on: target), maintainsInverses {
            target.removeLink(inverse, self)
        }
    }

    /// Sets a to-one relationship to `target`, or clears it.
    @usableFromInline
    package final func setToOne(_ index: Int, _ target: PersistentModel?) {
        if let target {
            relate(index, to: target)
        } else if let current = links[index].first {
            unrelate(index, from: current)
        } else {
            _ = checkWritable()
        }
    }

    /// Replaces a to-many relationship's contents: removes what is not in `models`, adds the rest in order.
    @usableFromInline
    package final func setRelated(_ index: Int, _ models: [PersistentModel]) {
        for current in links[index] where !models.contains(where: { $0 === current }) { unrelate(index, from: current) }
        for model in models { relate(index, to: model) }
    }

    // MARK: By name (models of a schema declared without classes)

    /// The attribute named `name` (`value(at:)`). Traps on a name the entity does not have.
    package final func value(named name: String) -> AttributeValue { value(at: attributeIndex(name)) }

    /// Sets the attribute named `name` (`setValue(_:at:)`).
    package final func setValue(_ value: AttributeValue, named name: String) { setValue(value, at: attributeIndex(name)) }

    /// The models of the relationship named `name` (`related(_:)`).
    package final func related(_ name: String) -> [PersistentModel] { related(relationshipIndex(name)) }

    /// Relates `target` through the relationship named `name` (`relate(_:to:)`).
    package final func relate(_ name: String, to target: PersistentModel) { relate(relationshipIndex(name), to: target) }

    /// Removes `target` from the relationship named `name` (`unrelate(_:from:)`).
    package final func unrelate(_ name: String, from target: PersistentModel) { unrelate(relationshipIndex(name), from: target) }

    private func attributeIndex(_ name: String) -> Int {
        guard let index = entity.attributeIndex(named: name) else { preconditionFailure("\(entity.name) has no attribute \(name)") }
        return index
    }

    private func relationshipIndex(_ name: String) -> Int {
        guard let index = entity.relationshipIndex(named: name) else { preconditionFailure("\(entity.name) has no relationship \(name)") }
        return index
    }

    // MARK: Internals

    var maintainsInverses: Bool { !selects(.noInverseMaintenance) }

    /// Whether reads of this model, once its deletion was saved, trap (`StoreBehavior.readAfterSavedDelete`).
    var readsTrapWhenDetached: Bool {
        container?.configuration.behavior.readAfterSavedDelete == .traps && !selects(.detachedReadsIgnoreParameter)
    }

    /// Whether the model's container runs with `fault`.
    final func selects(_ fault: Fault<StoreBehavior>) -> Bool { container?.configuration.behavior.faults.selects(fault) == true }

    final func inverseIndex(_ index: Int, on target: PersistentModel) -> Int? {
        guard let name = entity.relationships[index].inverse else { return nil }
        return target.entity.relationshipIndex(named: name)
    }

    /// Links without context checks; maintains the inverse.
    final func link(_ index: Int, _ target: PersistentModel) {
        let relationship = entity.relationships[index]
        if relationship.isToMany {
            if links[index].contains(where: { $0 === target }) { return }
        } else if let old = links[index].first {
            if old === target { return }
            removeLink(index, old)
            if let inverse = inverseIndex(index, on: old), maintainsInverses { old.removeLink(inverse, self) }
        }
        addLink(index, target)
        if target === self && selects(.selfLinkSkipsInverse) { return }
        guard let inverse = inverseIndex(index, on: target), maintainsInverses else { return }
        if !target.entity.relationships[inverse].isToMany, let previous = target.links[inverse].first, previous !== self {
            target.removeLink(inverse, previous)
            if relationship.isToMany || !selects(.oneToOneKeepsOldPartner) { previous.removeLink(index, target) }
        }
        target.addLink(inverse, self)
    }

    final func addLink(_ index: Int, _ target: PersistentModel) {
        if links[index].contains(where: { $0 === target }) { return }
        willChange()
        if entity.relationships[index].isToMany {
            links[index].append(target)
        } else {
            links[index] = [target]
        }
    }

    final func removeLink(_ index: Int, _ target: PersistentModel) {
        guard let position = links[index].firstIndex(where: { $0 === target }) else { return }
        willChange()
        links[index].remove(at: position)
    }

    /// Records the committed state before the first change of a saved model.
    final func willChange() {
        guard let context = modelContext, !isPendingInsert, !isChangeTracked else { return }
        committed = (values, links)
        isChangeTracked = true
        context.changed.append(self)
    }

    final func checkWritable() -> Bool {
        switch lifecycle {
        case .invalidated:
            raise(.invalidated(describeID()))
            return false
        case .detached:
            raise(.mutatingDeleted(describeID()))
            return false
        case .new, .registered:
            return true
        }
    }

    final func raise(_ trap: StoreTrap) {
        if let container {
            container.raise(trap)
        } else {
            fatalError(trap.description)
        }
    }

    final func describeID() -> String {
        identifier?.description ?? "\(schemaModels == nil ? ModelReflection.entityName(type(of: self)) : entity.name) (no identifier)"
    }
}

extension Fault<StoreBehavior> {
    /// Mutant `store-no-inverse`: setting one side of a relationship leaves the inverse of a registered model
    /// alone (G7).
    package static var noInverseMaintenance: Self { Self() }
    /// Mutant `store-self-link-skips-inverse`: relating a model to itself leaves the inverse side unset (G7).
    package static var selfLinkSkipsInverse: Self { Self() }
    /// Mutant `store-one-to-one-keeps-partner`: relating a to-one whose inverse is a to-one taken by another model
    /// leaves that model's side pointing at the target (G7).
    package static var oneToOneKeepsOldPartner: Self { Self() }
    /// Mutant `store-detached-reads-readable`: a model whose deletion was saved stays readable whatever
    /// readAfterSavedDelete says (G18).
    package static var detachedReadsIgnoreParameter: Self { Self() }
}
