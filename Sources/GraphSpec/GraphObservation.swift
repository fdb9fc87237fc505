import GraphFuzzEngine

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

    /// A deny issue (1600, R21), listed in a part of its own per relationship.
    public var isDeny: Bool { code == 1600 }
}

/// The kind of a model's identifier.
public enum IDKind: String, Sendable { case none, temporary, permanent }

/// The container's saved state as a step that saves, fails to save, is killed or relaunches observes it: the
/// rows, named as observations name models and sorted (G12, G19, G22, G25); after a relaunch on disk, how each
/// damaged copy of the store file was refused (G26); after a relaunch, the rows a save numbered whose numbers the
/// store had issued before (G27).
public struct SavedState: Equatable, Sendable, CustomStringConvertible {
    public var rows: [CanonicalRow]
    /// G26: the refusal of each `StoreDamage`, in order; nil when the step did not relaunch an on-disk store.
    public var damagedCopies: [String]?
    /// G27: the rows this save numbered at or below a number saved before; nil before the first relaunch.
    public var reusedNumbers: [String]?
    /// A prediction only (never observed, not compared): the provenance of the rows and of the save's checks.
    /// `rowsRule` decided every row (the step's: a save writes the container, a failed save keeps it, a relaunch
    /// reopens it), except the rows named in `decided` (present or removed), which a rule of the step's own changed (a
    /// save's delete rules, an upsert); `denyRules` decided each deny relationship's issues, listed or not (by the
    /// label of its part, `GraphSchema.denyRules`).
    public var rowsRule: String?
    public var decided: [(name: ObjectName, rule: String)] = []
    public var denyRules: [String: String] = [:]

    public init(rows: [CanonicalRow], damagedCopies: [String]? = nil, reusedNumbers: [String]? = nil) {
        self.rows = rows
        self.damagedCopies = damagedCopies
        self.reusedNumbers = reusedNumbers
    }

    /// The state as observed: its provenance is no part of it.
    public static func == (lhs: SavedState, rhs: SavedState) -> Bool {
        lhs.rows == rhs.rows && lhs.damagedCopies == rhs.damagedCopies && lhs.reusedNumbers == rhs.reusedNumbers
    }

    /// The same rows with `other`'s provenance.
    public func decided(as other: SavedState?) -> SavedState {
        var state = self
        (state.rowsRule, state.decided, state.denyRules) = (other?.rowsRule, other?.decided ?? [], other?.denyRules ?? [:])
        return state
    }

    /// The rule that decided part `label` (a row, a deny relationship's issues), when the state carries its provenance.
    func rule(ofPart label: String) -> String? {
        if let rule = denyRules[label] { return rule }
        guard rowsRule != nil, label.hasPrefix(Self.rowPrefix) else { return nil }
        return decided.first { Self.rowLabel($0.name) == label }?.rule ?? rowsRule
    }

    public var description: String {
        var text = "rows [" + rows.map(\.description).joined(separator: "; ") + "]"
        if let damagedCopies { text += ", damaged copies refused as [" + damagedCopies.joined(separator: ", ") + "]" }
        if let reusedNumbers, !reusedNumbers.isEmpty { text += ", numbers reused: " + reusedNumbers.joined(separator: ", ") }
        return text
    }

    /// The part label of the row named `name`.
    public static func rowLabel(_ name: ObjectName) -> String { rowPrefix + name.description }
    static let rowPrefix = "row "
    public static let damagedLabel = "damaged copies", numbersLabel = "numbers"

    var parts: [(label: String, value: String)] {
        rows.map { (Self.rowLabel($0.name), $0.description) }
            + (damagedCopies.map { [(Self.damagedLabel, $0.joined(separator: ", "))] } ?? [])
            + (reusedNumbers.map { [(Self.numbersLabel, $0.joined(separator: ", "))] } ?? [])
    }
}

/// What one step of a store operation observes, on the specification's side and on the store's.
public enum GraphObservation: Equatable, Sendable, CustomStringConvertible {
    case none
    /// A trap, by name (`SpecTrap`; a trap the specification does not know by the store's own name).
    case trap(String)
    case identifier(IDKind)
    /// An insert: the model's identifier, and how many models the insert registered (itself and the new models
    /// it reaches, G4).
    case inserted(IDKind, models: Int)
    case value(SpecValue)
    /// The models of a relationship or a fetch, sorted.
    case objects([ObjectName])
    /// A lookup's model: its name, the first earlier reference to the same object (-1 none), context and lifecycle.
    case found(ObjectName, sameAs: Int, context: Int, lifecycle: String)
    case notFound
    case count(Int)
    /// relate/unrelate: how many models the target's inverse relationship holds afterwards (-1: no inverse).
    case related(inverse: Int)
    /// delete: the context's pending deletes, and how many related models still point back at the model.
    case deleted(pending: Int, referencedBy: Int)
    case state(context: Int, lifecycle: String, deleted: Bool, changes: Bool)
    case saved(SavedState)
    case saveFailed(code: Int, issues: [IssueName], SavedState)
    /// An app's save refused before the store saved, for the reasons listed.
    case refused([String], SavedState)
    /// A relaunch: how many rows the reopened store holds, and its state.
    case relaunched(count: Int, SavedState)
    /// A call cancelled while it awaited, which stopped: whether its context holds unsaved changes afterwards.
    case cancelled(changes: Bool)

    public var description: String {
        switch self {
        case .none: return "()"
        case .trap(let code): return "trap(\(code))"
        case .identifier(let kind): return "id(\(kind.rawValue))"
        case let .inserted(kind, models): return "id(\(kind.rawValue))" + (models == 1 ? "" : ", \(models) models inserted")
        case .value(let value): return value.description
        case .objects(let names): return "[" + names.map(\.description).joined(separator: ", ") + "]"
        case let .found(name, same, context, lifecycle):
            return "found(\(name), same: \(same >= 0 ? "v\(same + 1)" : "-"), context: \(context), \(lifecycle))"
        case .notFound: return "notFound"
        case .count(let n): return "count(\(n))"
        case .related(let n): return "related(inverse: \(n))"
        case let .deleted(pending, referencedBy): return "deleted(pending: \(pending), referencedBy: \(referencedBy))"
        case let .state(context, lifecycle, deleted, changes):
            return "state(context: \(context), \(lifecycle), deleted: \(deleted), changes: \(changes))"
        case .saved(let state): return "saved, \(state)"
        case let .saveFailed(code, issues, state):
            return "saveFailed(\(code): " + issues.map(\.description).joined(separator: "; ") + "), \(state)"
        case let .refused(issues, state): return "refused(" + issues.joined(separator: ", ") + "), \(state)"
        case let .relaunched(count, state): return "count(\(count)), \(state)"
        case .cancelled(let changes): return "cancelled(changes: \(changes))"
        }
    }

    public var isTrap: Bool { if case .trap = self { return true } else { return false } }

    /// The same outcome with `state` as its saved state (an observation without one is returned as it is).
    public func with(_ state: SavedState) -> GraphObservation {
        switch self {
        case .saved: return .saved(state)
        case let .saveFailed(code, issues, _): return .saveFailed(code: code, issues: issues, state)
        case let .refused(reasons, _): return .refused(reasons, state)
        case let .relaunched(count, _): return .relaunched(count: count, state)
        default: return self
        }
    }

    /// The saved state a saving or relaunching step observes.
    public var savedState: SavedState? {
        switch self {
        case .saved(let state), .saveFailed(_, _, let state), .refused(_, let state), .relaunched(_, let state): return state
        default: return nil
        }
    }
}

/// The parts a mismatch is located in (`Prediction.part`): what happened ("outcome"), then what each rule decides
/// of it — an insert's registered models (G4); a failed save's code and its issues (the deny issues per
/// relationship, then the other validation issues); a refusal's reasons; the saved rows, one part each; the
/// damaged copies' refusals; the reused numbers.
extension GraphObservation: ObservationParts {
    public static let outcomeLabel = "outcome", insertedLabel = "models inserted", codeLabel = "code", validationLabel = "validation"

    /// The label of the deny issues (1600) raised for relationship `key` of `entity`.
    public static func denyLabel(_ entity: String, _ key: String) -> String { "1600 \(entity).\(key)" }

    public var parts: [(label: String, value: String)] {
        switch self {
        case let .inserted(kind, models):
            return [(Self.outcomeLabel, "id(\(kind.rawValue))"), (Self.insertedLabel, String(models))]
        case .saved(let state):
            return [(Self.outcomeLabel, "saved")] + state.parts
        case let .saveFailed(code, issues, state):
            var parts: [(label: String, value: String)] = [(Self.outcomeLabel, "saveFailed")]
            var labels: [String] = []
            for issue in issues where issue.isDeny {
                let label = Self.denyLabel(issue.entity, issue.key)
                if !labels.contains(label) { labels.append(label) }
            }
            for label in labels {
                parts.append((label, issues.filter { $0.isDeny && Self.denyLabel($0.entity, $0.key) == label }.map(\.description)
                    .joined(separator: "; ")))
            }
            parts.append((Self.validationLabel, issues.filter { !$0.isDeny }.map(\.description).joined(separator: "; ")))
            parts.append((Self.codeLabel, String(code)))
            return parts + state.parts
        case let .refused(reasons, state):
            return [(Self.outcomeLabel, "refused")] + reasons.map { ($0, "refused") } + state.parts
        case let .relaunched(count, state):
            return [(Self.outcomeLabel, "count(\(count))")] + state.parts
        default:
            return [(Self.outcomeLabel, description)]
        }
    }

    public var trapCode: String? { if case .trap(let code) = self { return code } else { return nil } }

    /// Provenance of a predicted save, failed save or relaunch: the rule that decided a row, or a deny relationship's
    /// issues.
    public func rule(ofPart label: String, observed: GraphObservation) -> String? { savedState?.rule(ofPart: label) }
}
