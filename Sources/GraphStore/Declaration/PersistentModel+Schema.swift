/// How a model takes its schema: a new model of a class keeps its values and relationships in its properties
/// (`@Attribute`, `@Relationship`); when it takes a schema they move into the store's storage.
extension PersistentModel {
    /// Takes entity `e` of `models` with the values and relationships its properties hold: the values move into the
    /// store's storage, then each relationship its initializer set is related (R10, R11 apply; a new model related
    /// here takes the same schema).
    final func adopt(as e: Int, in models: SchemaModels) {
        entity = models.entities[e]
        schemaModels = models
        links = entity.emptyLinks
        guard let layout = models.layouts[e] else {
            values = entity.defaultValues
            return
        }
        var gathered: [AttributeValue] = []
        gathered.reserveCapacity(layout.attributeOffsets.count)
        for (slot, offset) in layout.attributeOffsets.enumerated() {
            field(at: offset, as: AttributeField.self) { field in
                // Moved out, leaving `.null`: the property no longer holds the value.
                var value = AttributeValue.null
                swap(&value, &field.pointee.value)
                gathered.append(value)
                field.pointee.slot = slot
            }
        }
        values = gathered
        var initial: [(slot: Int, models: [PersistentModel])] = []
        for (slot, offset) in layout.relationshipOffsets.enumerated() {
            field(at: offset, as: RelationshipField.self) { field in
                if !field.pointee.pending.isEmpty {
                    var pending: [PersistentModel] = []
                    swap(&pending, &field.pointee.pending)
                    initial.append((slot, pending))
                }
                field.pointee.declaration = nil
                field.pointee.slot = slot
            }
        }
        for (slot, models) in initial {
            for model in models { relate(slot, to: model) }
        }
    }

    /// Takes entity `e` of `models` without reading the properties (a model made from a row, or by the schema): its
    /// properties' values are dropped, its values and relationships the caller's to set (empty relationships here).
    final func takeEntity(_ e: Int, in models: SchemaModels) {
        entity = models.entities[e]
        schemaModels = models
        links = entity.emptyLinks
        guard let layout = models.layouts[e] else { return }
        for (slot, offset) in layout.attributeOffsets.enumerated() {
            field(at: offset, as: AttributeField.self) { field in
                field.pointee.value = .null
                field.pointee.slot = slot
            }
        }
        for (slot, offset) in layout.relationshipOffsets.enumerated() {
            field(at: offset, as: RelationshipField.self) { field in
                field.pointee.pending = []
                field.pointee.declaration = nil
                field.pointee.slot = slot
            }
        }
    }

    /// Before a relationship of this new model is set: takes the schema of a model in `targets` that has one, else
    /// the schema its class's relationships make (two new models related to each other keep their inverses, R11).
    @usableFromInline
    final func takeSchema(relatingTo targets: [PersistentModel]) {
        guard schemaModels == nil else { return }
        let models = targets.lazy.compactMap(\.schemaModels).first ?? SchemaModels.discovering(type(of: self))
        models.adopt(self)
    }
}

extension PersistentModel {
    /// What a model that has no schema yet holds in its properties, laid out as its class's entity in `schema`: the
    /// attribute values and the models its initializer related, read and never moved (as reading its typed
    /// properties would); nil when the model has a schema, or `schema` has no layout for its class.
    package final func heldInProperties(laidOutBy schema: Schema) -> (entity: EntitySchema, values: [AttributeValue], links: [[PersistentModel]])? {
        guard schemaModels == nil, let e = schema.models.entityIndex(of: type(of: self)), let layout = schema.models.layouts[e] else { return nil }
        let values = layout.attributeOffsets.map { offset in field(at: offset, as: AttributeField.self) { $0.pointee.value } }
        let links = layout.relationshipOffsets.map { offset in field(at: offset, as: RelationshipField.self) { $0.pointee.pending } }
        return (schema.models.entities[e], values, links)
    }
}

extension EntitySchema {
    /// The entity of a model that has no schema yet.
    static let withoutSchema = EntitySchema(name: "", attributes: [], relationships: [])
}
