import GraphSpec
import GraphStore

extension GraphSchema {
    /// The specification's description of a store schema (what the rules decide over), with values derived from
    /// its constraints; `name` for reports.
    public init(_ schema: Schema, name: String = "schema") {
        self.init(name: name, entities: schema.entities.map { entity in
            SpecEntity(name: entity.name, attributes: entity.attributes.map { attribute in
                SpecAttribute(name: attribute.name, kind: SpecValueKind(rawValue: attribute.kind.rawValue) ?? .string, optional: attribute.isOptional,
                              defaultValue: SchemaSystem.spec(attribute.defaultValue), range: attribute.range, length: attribute.length,
                              unique: attribute.isUnique)
            }, relationships: entity.relationships.enumerated().map { r, relationship in
                SpecRelationship(name: relationship.name, destination: entity.destinationIndex[r], toMany: relationship.isToMany,
                                 inverse: entity.inverseIndex[r], deleteRule: SpecDeleteRule(rawValue: relationship.deleteRule.rawValue) ?? .noAction,
                                 optional: relationship.isOptional, minCount: relationship.minCount, maxCount: relationship.maxCount)
            })
        })
    }
}

extension Schema {
    /// The store schema a specification schema describes (no model classes: `Schema(entities:)`). Throws when it
    /// does not hold together.
    package init(_ schema: GraphSchema) throws(SchemaError) {
        try self.init(entities: schema.entities.map { entity in
            EntitySchema(name: entity.name, attributes: entity.attributes.map { attribute in
                AttributeSchema(attribute.name, AttributeKind(rawValue: attribute.kind.rawValue) ?? .string, optional: attribute.optional,
                                default: SchemaSystem.store(attribute.defaultValue), range: attribute.range, length: attribute.length,
                                unique: attribute.unique)
            }, relationships: entity.relationships.map { relationship in
                RelationshipSchema(relationship.name, to: schema.entities[relationship.destination].name, toMany: relationship.toMany,
                                   inverse: relationship.inverse.map { schema.entities[relationship.destination].relationships[$0].name },
                                   deleteRule: DeleteRule(rawValue: relationship.deleteRule.rawValue) ?? .nullify, optional: relationship.optional,
                                   minCount: relationship.minCount, maxCount: relationship.maxCount)
            })
        })
    }
}
