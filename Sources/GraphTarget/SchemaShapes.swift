import GraphFuzzEngine
import GraphSpec

/// The schemas the `schemas` target draws: 2–6 entities `E1`…, each with up to three attributes `a1`… (bool, int,
/// string or list; optional or required, with or without a default, a range or length, sometimes unique) and
/// relationships `r1`… between any two entities, itself included: to-one or to-many, with an inverse (to-one or
/// to-many) or none, any delete rule on each side, optional or required, a to-many sometimes with a count limit.
/// Every shape is a choice of the case, so shrinking removes entities, attributes and relationships and simplifies
/// what is left; the simplest value of each choice is the plainest schema (2 entities, nothing declared). A choice
/// at its simplest value is left out of the trace.
enum SchemaShapes {
    /// The most entities, attributes per entity and relationships per schema.
    static let entities = 2...6, attributes = 0...3, relationships = 0...6

    /// Draws a schema that holds together for the store (every inverse points back). Every entity, attribute and
    /// relationship slot is drawn whether the counts use it or not, so each choice keeps its place when shrinking
    /// lowers a count (the later choices keep their meaning); a slot the counts leave out is not part of the
    /// schema, and shrinks to its plainest values, which the trace leaves out.
    static func draw(_ args: inout Arguments) -> GraphSchema {
        let count = number(&args, "entities", in: entities) { $0.int(in: entities) }
        var declared: [Declared] = []
        for e in 0..<entities.upperBound {
            let used = number(&args, "E\(e + 1).attributes", in: attributes) { $0.int(in: attributes) }
            let drawn = (0..<attributes.upperBound).map { a in attribute(&args, "E\(e + 1).a\(a + 1)") }
            if e < count { declared.append(Declared(name: "E\(e + 1)", attributes: Array(drawn.prefix(used)))) }
        }
        let relationshipCount = number(&args, "relationships", in: relationships) { $0.int(in: relationships) }
        let names = (1...entities.upperBound).map { "E\($0)" }
        for k in 0..<relationships.upperBound {
            let label = "r\(k + 1)"
            let from = min(count - 1, args.name("\(label).from", from: names, default: 0) { $0.int(in: 0...(count - 1)) })
            let to = min(count - 1, args.name("\(label).to", from: names, default: 0) { $0.int(in: 0...(count - 1)) })
            let forward = end(&args, label, destination: to, toMany: nil)
            let inverse = args.enumeration("\(label).inverse", InverseShape.self, default: InverseShape.none) { draw in
                [.none, .toOne, .toMany][draw.chooseWeighted([2, 2, 2])]
            }
            let back = end(&args, "\(label)i", destination: from, toMany: inverse == .toMany)
            guard k < relationshipCount else { continue }
            guard inverse != .none else {
                declared[from].relationships.append(Relationship(name: label, end: forward, inverse: nil))
                continue
            }
            declared[from].relationships.append(Relationship(name: label, end: forward, inverse: "\(label)i"))
            declared[to].relationships.append(Relationship(name: "\(label)i", end: back, inverse: label))
        }
        return GraphSchema(name: "drawn", entities: declared.map { entity in
            SpecEntity(name: entity.name, attributes: entity.attributes, relationships: entity.relationships.map { relationship in
                SpecRelationship(name: relationship.name, destination: relationship.end.destination, toMany: relationship.end.toMany,
                                 inverse: relationship.inverse.flatMap { name in
                                     declared[relationship.end.destination].relationships.firstIndex { $0.name == name }
                                 },
                                 deleteRule: relationship.end.deleteRule, optional: relationship.end.optional, maxCount: relationship.end.maxCount)
            })
        })
    }

    /// A number of `range` drawn by `generate`, recorded as its digits and left out of the trace at the range's
    /// lower bound.
    static func number(_ args: inout Arguments, _ label: String, in range: ClosedRange<Int>, _ generate: (Draw) -> Int) -> Int {
        range.lowerBound + args.name(label, from: range.map(String.init), default: 0) { generate($0) - range.lowerBound }
    }

    enum InverseShape: String, CaseIterable { case none, toOne, toMany }
    enum Constraint: String, CaseIterable { case none, bounded }

    struct End {
        var destination: Int, toMany: Bool, deleteRule: SpecDeleteRule, optional: Bool, maxCount: Int?
    }

    struct Relationship {
        var name: String, end: End, inverse: String?
    }

    struct Declared {
        var name: String, attributes: [SpecAttribute], relationships: [Relationship] = []
    }

    /// One side of a relationship: to-many or to-one (`toMany`, or drawn when nil), its delete rule, whether it is
    /// optional (a required relationship is rarer), and for a to-many sometimes a count limit of 1 or 2.
    static func end(_ args: inout Arguments, _ label: String, destination: Int, toMany given: Bool?) -> End {
        let toMany = given ?? args.bool("\(label).toMany", default: false) { $0.chooseBool() }
        let rule = args.enumeration("\(label).rule", SpecDeleteRule.self, default: .nullify) { draw in
            [.nullify, .cascade, .deny, .noAction][draw.chooseWeighted([3, 3, 3, 1])]
        }
        let optional = args.bool("\(label).optional", default: true) { !$0.chooseBool(probability: 0.2) }
        let maxCount = number(&args, "\(label).max", in: 0...2) { draw in
            let limited = draw.chooseBool(probability: 0.3), limit = draw.int(in: 1...2)
            return limited ? limit : 0
        }
        return End(destination: destination, toMany: toMany, deleteRule: rule, optional: optional, maxCount: toMany && maxCount > 0 ? maxCount : nil)
    }

    /// An attribute: its kind; optional (default nil) or required with a default or, rarer, without one; a range
    /// (int, 1...3) or length (string or list, 1...3) or none; unique, rarely, and then optional (a create step
    /// gives it nil or one of two values, so that inserts share values with saved rows and with each other, G28).
    static func attribute(_ args: inout Arguments, _ label: String) -> SpecAttribute {
        let name = String(label.split(separator: ".").last!)
        let kind = args.enumeration("\(label).kind", SpecValueKind.self, default: .string) { draw in
            [.string, .int, .bool, .strings][draw.chooseWeighted([3, 3, 1, 1])]
        }
        let unique = args.bool("\(label).unique", default: false) { $0.chooseBool(probability: 0.2) }
        let optional = args.bool("\(label).optional", default: true) { !$0.chooseBool() } || unique
        let constraint = args.enumeration("\(label).constraint", Constraint.self, default: Constraint.none) { draw in
            draw.chooseBool() ? .bounded : .none
        }
        let bounded = kind != .bool && constraint == .bounded
        let range = bounded && kind == .int ? 1...3 : nil
        let length = bounded && kind != .int ? 1...3 : nil
        let hasDefault = args.bool("\(label).default", default: true) { !$0.chooseBool(probability: 0.2) } || optional
        let defaultValue: SpecValue
        if optional || !hasDefault {
            defaultValue = .null
        } else {
            switch kind {
            case .bool: defaultValue = .bool(false)
            case .int: defaultValue = .int(range?.lowerBound ?? 0)
            case .string: defaultValue = .string(String(repeating: "x", count: length?.lowerBound ?? 0))
            case .strings: defaultValue = .strings(Array(repeating: "x", count: length?.lowerBound ?? 0))
            }
        }
        return SpecAttribute(name: name, kind: kind, optional: optional, defaultValue: defaultValue, range: range, length: length, unique: unique)
    }
}
