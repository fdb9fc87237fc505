extension GraphSchema {
    /// The schema as SwiftData-like declarations, one `@Model` class per entity on one line:
    /// `@Model final class E1 { @Attribute(.unique) var a1: Int?; @Relationship(deleteRule: .cascade, inverse: \E2.r1i) var r1: [E2] }`.
    /// A range or length, which SwiftData declares in code rather than in the macro, follows its attribute as a
    /// comment; `.nullify` (the default rule) and absent limits are left out.
    public var declaration: [String] {
        entities.map { entity in
            let members = entity.attributes.map(Self.declaration) + entity.relationships.map { declaration(of: $0) }
            return "@Model final class \(entity.name) {" + (members.isEmpty ? "" : " " + members.joined(separator: "; ") + " ") + "}"
        }
    }

    /// `@Attribute(.unique) var a1: Int? /* 1...3 */`, `var a2: String = "x"`, `var a3: [String]` (required, no default).
    static func declaration(_ attribute: SpecAttribute) -> String {
        let type: String
        switch attribute.kind {
        case .bool: type = "Bool"
        case .int: type = "Int"
        case .string: type = "String"
        case .strings: type = "[String]"
        }
        var text = (attribute.unique ? "@Attribute(.unique) " : "") + "var \(attribute.name): \(type)"
        if attribute.optional {
            text += "?"
        } else if attribute.defaultValue != .null {
            text += " = \(attribute.defaultValue)"
        }
        if let range = attribute.range { text += " /* \(range.lowerBound)...\(range.upperBound) */" }
        if let length = attribute.length { text += " /* count \(length.lowerBound)...\(length.upperBound) */" }
        return text
    }

    /// `@Relationship(deleteRule: .cascade, maximumModelCount: 2, inverse: \E2.r1i) var r1: [E2]`; a to-one is
    /// `E2?`, or `E2` when required.
    func declaration(of relationship: SpecRelationship) -> String {
        let destination = entities[relationship.destination]
        var options: [String] = []
        if relationship.deleteRule != .nullify { options.append("deleteRule: .\(relationship.deleteRule.rawValue)") }
        if let least = relationship.minCount { options.append("minimumModelCount: \(least)") }
        if let most = relationship.maxCount { options.append("maximumModelCount: \(most)") }
        if let inverse = relationship.inverse { options.append("inverse: \\\(destination.name).\(destination.relationships[inverse].name)") }
        let type = relationship.toMany ? "[\(destination.name)]" : destination.name + (relationship.optional ? "?" : "")
        let required = relationship.toMany && !relationship.optional ? " /* required */" : ""
        return (options.isEmpty ? "" : "@Relationship(" + options.joined(separator: ", ") + ") ") + "var \(relationship.name): \(type)" + required
    }
}
