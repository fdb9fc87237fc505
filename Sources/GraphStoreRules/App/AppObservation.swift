import GraphFuzzEngine
import GraphSpec

/// What an app action observes, as its description determines it: the outcome (done, a trap, a failed save's code),
/// then each model the description names — its context, lifecycle, identifier and whether it is deleted — and the
/// relationships and attributes it relates or sets (every attribute of the model it creates), then, when it saves,
/// the saved rows. A mismatch names the first part that differs.
public struct AppObservation: Equatable, Sendable, CustomStringConvertible, ObservationParts {
    /// A labelled part (`v3`, `v3.groups`, `v3.title`) and its value as text.
    public struct Part: Equatable, Sendable {
        public var label: String
        public var value: String
        init(_ label: String, _ value: String) { (self.label, self.value) = (label, value) }
    }

    public var outcome: String
    public var models: [Part]
    /// The saved rows, when the description saves.
    public var rows: [CanonicalRow]?

    init(outcome: String, parts: [Part], rows: [CanonicalRow]?) {
        self.outcome = outcome
        self.models = parts
        self.rows = rows
    }

    init(trap name: String) { self.init(outcome: "trap(\(name))", parts: [], rows: nil) }

    static let done = "done", unreadable = "unreadable (its backing data is gone)"
    static func saveFailed(_ code: Int) -> String { "saveFailed(\(code))" }

    /// A model's state as a part writes it: `main, registered, temporary id, deleted`.
    static func state(context: Int, lifecycle: String, id: IDKind, deleted: Bool) -> String {
        let where_ = context < 0 ? "no context" : ContextRef(context).description
        return "\(where_), \(lifecycle), \(id == .none ? "no" : id.rawValue) id" + (deleted ? ", deleted" : "")
    }

    public var parts: [(label: String, value: String)] {
        [(GraphObservation.outcomeLabel, outcome)] + models.map { ($0.label, $0.value) }
            + (rows ?? []).map { (SavedState.rowLabel($0.name), $0.description) }
    }

    public var trapCode: String? {
        guard outcome.hasPrefix("trap(") else { return nil }
        return String(outcome.dropFirst(5).dropLast())
    }

    public var description: String {
        var text = outcome
        if !models.isEmpty { text += "; " + models.map { "\($0.label): \($0.value)" }.joined(separator: "; ") }
        if let rows { text += "; rows [" + rows.map(\.description).joined(separator: "; ") + "]" }
        return text
    }
}
