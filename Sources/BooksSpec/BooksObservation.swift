import GraphFuzzEngine
import GraphSpec

/// What one of the library's domain operations observes.
public enum BooksObservation: Equatable, Sendable, CustomStringConvertible {
    /// A store trap, by name.
    case trap(String)
    /// A factory's entry: its identifier, and whether the work's (and the edition's) inverse holds it.
    case entry(IDKind, inWork: Bool, inEdition: Bool)
    /// acquire: the entry's status afterwards, and whether the edition's inverse holds the entry.
    case acquired(status: SpecValue, inEdition: Bool)
    /// A model one reference names (`userEntry`): nil for none.
    case object(ObjectName?)
    /// `validate()`: nil when valid, else the error.
    case validation(String?)

    public var description: String {
        switch self {
        case .trap(let code): return "trap(\(code))"
        case let .entry(kind, inWork, inEdition): return "entry(id(\(kind.rawValue)), inWork: \(inWork), inEdition: \(inEdition))"
        case let .acquired(status, inEdition): return "acquired(status: \(status), inEdition: \(inEdition))"
        case .object(let name): return name?.description ?? "nil"
        case .validation(let error): return "validate(" + (error ?? "ok") + ")"
        }
    }

    public var isTrap: Bool { if case .trap = self { return true } else { return false } }
}

/// The parts a mismatch is located in: what happened ("outcome"), then a new entry's identifier and the inverses
/// that hold it, or an acquired entry's status and the edition's inverse.
extension BooksObservation: ObservationParts {
    public static let identifierLabel = "identifier", inWorkLabel = "work's entries", inEditionLabel = "edition's entries", statusLabel = "status"

    public var parts: [(label: String, value: String)] {
        switch self {
        case let .entry(kind, inWork, inEdition):
            return [(GraphObservation.outcomeLabel, "entry"), (Self.identifierLabel, kind.rawValue), (Self.inWorkLabel, String(inWork)),
                    (Self.inEditionLabel, String(inEdition))]
        case let .acquired(status, inEdition):
            return [(GraphObservation.outcomeLabel, "acquired"), (Self.statusLabel, status.description), (Self.inEditionLabel, String(inEdition))]
        default:
            return [(GraphObservation.outcomeLabel, description)]
        }
    }

    public var trapCode: String? { if case .trap(let code) = self { return code } else { return nil } }
}
