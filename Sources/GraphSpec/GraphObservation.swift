/// A model as an observation names it: by the first reference whose model has the same saved row
/// (`r:v2`), or, for a model without a permanent identifier, by the first reference to the same object (`v2`).
public struct ObjectName: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var row: Bool
    /// 0-based reference index, -1 when no reference names it.
    public var ref: Int

    public init(row: Bool, ref: Int) { (self.row, self.ref) = (row, ref) }

    public var description: String { (row ? "r:" : "") + (ref >= 0 ? "v\(ref + 1)" : "?") }
    public static func < (lhs: ObjectName, rhs: ObjectName) -> Bool { (lhs.ref, lhs.row ? 1 : 0) < (rhs.ref, rhs.row ? 1 : 0) }
}

/// A validation failure as observed: Core Data code, entity, key, and the model's name.
public struct IssueName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Core Data's code (R25), the entity and key it names, and the model it was raised for.
    public var code: Int, entity: String, key: String, object: ObjectName?

    public init(code: Int, entity: String, key: String, object: ObjectName?) {
        (self.code, self.entity, self.key, self.object) = (code, entity, key, object)
    }

    public var description: String { "\(code) \(entity).\(key)" + (object.map { " \($0)" } ?? "") }
    public static func < (lhs: IssueName, rhs: IssueName) -> Bool {
        (lhs.code, lhs.entity, lhs.key, lhs.object?.ref ?? -2, lhs.object?.row ?? false ? 1 : 0)
            < (rhs.code, rhs.entity, rhs.key, rhs.object?.ref ?? -2, rhs.object?.row ?? false ? 1 : 0)
    }
}

/// The kind of a model's identifier.
public enum IDKind: String, Sendable { case none, temporary, permanent }

/// What one step observes, on the specification's side and on the store's.
public enum GraphObservation: Equatable, Sendable, CustomStringConvertible {
    case none
    /// A store trap, by code (`StoreTrap.Code`'s raw value).
    case trap(String)
    case identifier(IDKind)
    case value(SpecValue)
    /// The models of a relationship or a fetch, sorted.
    case objects([ObjectName])
    /// A model one reference names (`userEntry`): nil for none.
    case object(ObjectName?)
    /// A lookup's model: its name, the first earlier reference to the same object (-1 none), context and lifecycle.
    case found(ObjectName, sameAs: Int, context: Int, lifecycle: String)
    case notFound
    case count(Int)
    /// relate/unrelate: how many models the target's inverse relationship holds afterwards (-1: no inverse).
    case related(inverse: Int)
    /// A factory's entry: its identifier, and whether the work's (and the edition's) inverse holds it.
    case entry(IDKind, inWork: Bool, inEdition: Bool)
    /// acquire: the entry's status afterwards, and whether the edition's inverse holds the entry.
    case acquired(status: SpecValue, inEdition: Bool)
    /// delete: the context's pending deletes, and how many related models still point back at the model.
    case deleted(pending: Int, referencedBy: Int)
    case state(context: Int, lifecycle: String, deleted: Bool, changes: Bool)
    case saved
    case saveFailed(code: Int, issues: [IssueName])
    /// `Library.save()` refused before the store saved.
    case refused([String])
    /// `validate()`: nil when valid, else the error.
    case validation(String?)

    public var description: String {
        switch self {
        case .none: return "()"
        case .trap(let code): return "trap(\(code))"
        case .identifier(let kind): return "id(\(kind.rawValue))"
        case .value(let value): return value.description
        case .objects(let names): return "[" + names.map(\.description).joined(separator: ", ") + "]"
        case .object(let name): return name?.description ?? "nil"
        case let .found(name, same, context, lifecycle):
            return "found(\(name), same: \(same >= 0 ? "v\(same + 1)" : "-"), context: \(context), \(lifecycle))"
        case .notFound: return "notFound"
        case .count(let n): return "count(\(n))"
        case .related(let n): return "related(inverse: \(n))"
        case let .entry(kind, inWork, inEdition): return "entry(id(\(kind.rawValue)), inWork: \(inWork), inEdition: \(inEdition))"
        case let .acquired(status, inEdition): return "acquired(status: \(status), inEdition: \(inEdition))"
        case let .deleted(pending, referencedBy): return "deleted(pending: \(pending), referencedBy: \(referencedBy))"
        case let .state(context, lifecycle, deleted, changes):
            return "state(context: \(context), \(lifecycle), deleted: \(deleted), changes: \(changes))"
        case .saved: return "saved"
        case let .saveFailed(code, issues): return "saveFailed(\(code): " + issues.map(\.description).joined(separator: "; ") + ")"
        case .refused(let issues): return "refused(" + issues.joined(separator: ", ") + ")"
        case .validation(let error): return "validate(" + (error ?? "ok") + ")"
        }
    }

    public var isTrap: Bool { if case .trap = self { return true } else { return false } }

    /// The rule a mismatch between `expected` and `observed` breaks when it lies only in an inverse (G7):
    /// a factory's or acquire's own result agrees, but the other side of the relationship does not.
    /// Whether a new entry's observation differs in its identifier's kind alone: the entry was inserted by
    /// this step, so the kind is G2's (temporary until the first save), whatever rule decided its links.
    public static func identifierOnlyMismatch(_ expected: GraphObservation, _ observed: GraphObservation) -> Bool {
        if case let (.entry(k1, w1, e1), .entry(k2, w2, e2)) = (expected, observed) { return k1 != k2 && w1 == w2 && e1 == e2 }
        return false
    }

    /// The rule a mismatch between two refusals of `Library.save()` breaks, from the reasons that differ: B4 when
    /// "editionInUse" is among them, else B5 (`validate()`'s reasons); nil when either is not a refusal.
    public static func refusalRule(_ expected: GraphObservation, _ observed: GraphObservation) -> String? {
        guard case .refused(let a) = expected, case .refused(let b) = observed else { return nil }
        let differing = a.filter { !b.contains($0) } + b.filter { !a.contains($0) }
        return differing.contains("editionInUse") ? GraphRules.ownedKeepsEdition : GraphRules.libraryValidates
    }

    public static func inverseOnlyMismatch(_ expected: GraphObservation, _ observed: GraphObservation) -> Bool {
        switch (expected, observed) {
        case let (.entry(k1, _, _), .entry(k2, _, _)): return k1 == k2
        case let (.acquired(s1, _), .acquired(s2, _)): return s1 == s2
        default: return false
        }
    }
}
