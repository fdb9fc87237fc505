/// A schema property CloudKit mirroring does not accept (R23, R24).
public struct CloudKitViolation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        /// R23: "CloudKit doesn't support the Deny deletion rule".
        case denyDeleteRule
        /// R24: every relationship must be optional.
        case requiredRelationship
        /// R24: every relationship must have an inverse.
        case relationshipWithoutInverse
        /// R24: no unique constraints.
        case uniqueAttribute
        /// R24: every attribute optional or with a default.
        case requiredAttributeWithoutDefault

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var kind: Kind
    public var entity: String
    public var property: String

    public init(kind: Kind, entity: String, property: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
    }

    public var description: String { "\(kind.rawValue): \(entity).\(property)" }

    public static func < (lhs: CloudKitViolation, rhs: CloudKitViolation) -> Bool {
        (lhs.entity, lhs.property, lhs.kind) < (rhs.entity, rhs.property, rhs.kind)
    }
}

extension Schema {
    /// Every violation of CloudKit's schema limits (R23, R24), sorted; empty when the schema can be mirrored.
    public func cloudKitViolations() -> [CloudKitViolation] {
        var result: [CloudKitViolation] = []
        for entity in entities {
            for attribute in entity.attributes {
                if attribute.isUnique { result.append(CloudKitViolation(kind: .uniqueAttribute, entity: entity.name, property: attribute.name)) }
                if !attribute.isOptional, attribute.defaultValue.isNull {
                    result.append(CloudKitViolation(kind: .requiredAttributeWithoutDefault, entity: entity.name, property: attribute.name))
                }
            }
            for relationship in entity.relationships {
                if relationship.deleteRule == .deny {
                    result.append(CloudKitViolation(kind: .denyDeleteRule, entity: entity.name, property: relationship.name))
                }
                if !relationship.isOptional {
                    result.append(CloudKitViolation(kind: .requiredRelationship, entity: entity.name, property: relationship.name))
                }
                if relationship.inverse == nil {
                    result.append(CloudKitViolation(kind: .relationshipWithoutInverse, entity: entity.name, property: relationship.name))
                }
            }
        }
        return result.sorted()
    }
}
