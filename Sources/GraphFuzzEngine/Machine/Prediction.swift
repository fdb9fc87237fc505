/// What the specification predicts a step observes, and the rule that decides it.
///
/// A mismatch is reported under `rule`, unless the observation is made of labelled parts
/// (`ObservationParts`) and the first part that differs has a rule of its own: the one the predicted value
/// carries for it (its provenance, `ObservationParts.rule(ofPart:observed:)`), else the one declared for it
/// (`part(_:rule:)`).
public struct Prediction<Observation: Equatable>: Equatable {
    /// The predicted observation.
    public var value: Observation
    /// Other observations the rule also allows (a concurrent step may see either of two values).
    public var alternatives: [Observation]
    /// The rule id that determines the observation; a mismatch is reported against it.
    public var rule: String
    /// The rules of labelled parts, in the order they were declared, and (unlabelled) the other rules a target
    /// says decided something of the observation: coverage credits each beside `rule`.
    @usableFromInline package var credits: PartRules

    @inlinable
    public init(_ value: Observation, rule: String, alternatives: [Observation] = []) {
        self.value = value
        self.rule = rule
        self.alternatives = alternatives
        credits = PartRules()
    }

    /// The same prediction, with a mismatch located in part `label` of the observation reported under `rule`.
    @inlinable
    public func part(_ label: String, rule: String) -> Prediction<Observation> {
        var copy = self
        copy.credits.append(PartRule(label: label, rule: rule))
        return copy
    }

    /// Whether `observed` is the predicted value or one of the alternatives.
    @inlinable
    public func allows(_ observed: Observation) -> Bool {
        observed == value || alternatives.contains(observed)
    }

    /// The rule declared for part `label`, if any.
    func rule(ofPart label: String) -> String? { credits.first { !label.isEmpty && $0.label == label }?.rule }
}

/// An observation made of labelled parts. When an observation differs from the prediction, the engine finds
/// the first part (in the order of the predicted value's parts, a part only the observation has where the
/// observation lists it) whose value differs, and reports the mismatch under the rule that decided that part:
/// the predicted value's provenance for it (`rule(ofPart:observed:)`), else the rule the prediction declares for it
/// (`Prediction.part(_:rule:)`), else the prediction's rule.
public protocol ObservationParts {
    /// The parts, each labelled and written as text; computed only for a mismatch.
    var parts: [(label: String, value: String)] { get }
    /// A crash-class fault the system recorded instead of crashing (a store trap): the failure's kind is
    /// `.trap`, with this code as its detail. Nil (the default) for an ordinary observation.
    var trapCode: String? { get }
    /// Provenance: the rule that last decided part `label` of this value where `observed` differs from it, when
    /// the value carries it. A specification whose state several rules change may record, with each change, the
    /// rule that made it, and tag what it predicts from that state with it (a part made of several values names
    /// the rule of the first that differs). Asked of the predicted value only, and only for a mismatch (for a label
    /// of its parts or of the observation's). Nil (the default) for a value that carries none.
    func rule(ofPart label: String, observed: Self) -> String?
}

extension ObservationParts {
    public var trapCode: String? { nil }
    public func rule(ofPart label: String, observed: Self) -> String? { nil }

    /// `rule(ofPart:observed:)`, when `observed` is of this type.
    func provenance(ofPart label: String, observed: Any) -> String? {
        (observed as? Self).flatMap { rule(ofPart: label, observed: $0) }
    }
}

extension Prediction {
    /// The failure of a step whose observation `observed` the prediction does not allow (`trace` is the
    /// step's trace): the rule of the first differing part when the observation has parts, the trap kind
    /// when it recorded a trap the prediction does not. Without a trace, the same failure with its message left
    /// unwritten (`RunOptions.describesFailures`): its rule, kind and detail do not depend on the message.
    @usableFromInline
    func mismatch(_ observed: Observation, trace: TraceStep?) -> Failure {
        let undescribed = "(not described: a shrink candidate)"
        let expected = { Rendering.text(self.value) }
        guard let observedParts = observed as? any ObservationParts, let predictedParts = value as? any ObservationParts else {
            guard let trace else { return Failure(rule: rule, kind: .mismatch, message: undescribed) }
            return Failure(rule: rule, kind: .mismatch, message: "\(trace): expected \(expected()), observed \(Rendering.text(observed))")
        }
        let differing = Self.firstDifferingPart(predicted: predictedParts.parts, observed: observedParts.parts)
        let decided = differing.flatMap { predictedParts.provenance(ofPart: $0, observed: observed) ?? rule(ofPart: $0) } ?? rule
        if let code = observedParts.trapCode, predictedParts.trapCode == nil {
            let message = trace.map { "\($0): trapped (\(code)) where the specification expects \(expected())" } ?? undescribed
            return Failure(rule: decided, kind: .trap, message: message, detail: code)
        }
        guard let trace else { return Failure(rule: decided, kind: .mismatch, message: undescribed) }
        let located = differing.map { " (its \($0) differs)" } ?? ""
        return Failure(rule: decided, kind: .mismatch, message: "\(trace): expected \(expected()), observed \(Rendering.text(observed))\(located)")
    }
}

extension Prediction {
    /// The label of the first part that differs, in the order the parts are listed: the predicted value's parts
    /// in their order, each part only the observation has compared where the observation lists it (before the
    /// predicted part the observation lists next). Nil when every part agrees.
    package static func firstDifferingPart(predicted: [(label: String, value: String)], observed: [(label: String, value: String)]) -> String? {
        let predictedLabels = Set(predicted.map(\.label))
        var unpredictedBefore: [String: String] = [:], trailing: String?
        for part in observed {
            if !predictedLabels.contains(part.label) {
                if trailing == nil { trailing = part.label }
            } else if let extra = trailing {
                if unpredictedBefore[part.label] == nil { unpredictedBefore[part.label] = extra }
                trailing = nil
            }
        }
        for part in predicted {
            if let extra = unpredictedBefore[part.label] { return extra }
            if observed.first(where: { $0.label == part.label })?.value != part.value { return part.label }
        }
        return trailing
    }
}

/// How observations and predicted values are written in reports: as they describe themselves, an optional
/// as its value or `nil`.
@usableFromInline
enum Rendering {
    @usableFromInline static func text<T>(_ value: T) -> String {
        if let optional = value as? any OptionalRendering { return optional.rendered }
        return String(describing: value)
    }

    /// `value` as a Swift literal in an exported test: a string quoted, anything else as `text` writes it.
    @usableFromInline static func swiftLiteral<T>(_ value: T) -> String {
        if let string = value as? String { return TraceValue.quote(string) }
        if let optional = value as? any OptionalRendering { return optional.swiftLiteral }
        return String(describing: value)
    }
}

/// An optional written as its value or `nil`.
@usableFromInline
protocol OptionalRendering {
    var rendered: String { get }
    var swiftLiteral: String { get }
}

extension Optional: OptionalRendering {
    @usableFromInline
    var rendered: String { map { Rendering.text($0) } ?? "nil" }
    @usableFromInline
    var swiftLiteral: String { map { Rendering.swiftLiteral($0) } ?? "nil" }
}
