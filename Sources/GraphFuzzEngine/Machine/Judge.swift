/// The one judge of a step: what the system did, against what the specification predicts for it. A step of one
/// action, the same step over several states a concurrent step left, and each branch of a concurrent step are judged
/// here; each caller says only where its prediction and its observation come from. Generic over the observation alone
/// (no wrapper type) and inlined where it judges: a machine whose steps are not specialised instantiates no metadata
/// for it at every step.
@usableFromInline
enum Judge {
    /// Whether `predicted` allows `observed`: the predicted value or one of its alternatives.
    @inlinable @inline(__always)
    static func allows<O: Equatable>(_ predicted: Prediction<O>, _ observed: O) -> Bool {
        predicted.allows(observed)
    }

    /// The failure of an observation `predicted` does not allow (`trace` is the step's): a mismatch under the rule of
    /// the first part that differs, or a trap the observation recorded.
    @inlinable @inline(__always)
    static func mismatch<O: Equatable>(_ predicted: Prediction<O>, _ observed: O, trace: TraceStep) -> Failure {
        predicted.mismatch(observed, trace: trace)
    }

    /// The same failure, its signature alone: a shrink candidate's (`RunOptions.describesFailures`).
    @inlinable @inline(__always)
    static func mismatch<O: Equatable>(_ predicted: Prediction<O>, _ observed: O) -> Failure {
        predicted.mismatch(observed, trace: nil)
    }

    /// The failure of a step whose system threw `error` (what it says) where `predicted` expects an observation: under
    /// the prediction's rule.
    @inlinable @inline(__always)
    static func thrown<O: Equatable>(_ predicted: Prediction<O>, _ error: String, trace: TraceStep) -> Failure {
        Failure(rule: predicted.rule, kind: .thrown, message: "\(trace) threw \(error)")
    }

    /// A step after a concurrent step, when the system may be in any of several states — `model` (its prediction
    /// `predicted`), then `others` (each predicted here by `predict`, which leaves it as the state after the step):
    /// keeps the states whose prediction allows `observed`, the first of them in `model`, and returns the prediction
    /// the step is judged by; nil when none allows it (the step fails as it would in `model`). Never inlined: a step in
    /// one state, the common one, stays small.
    @inlinable @inline(never)
    static func keep<Model, O: Equatable>(explaining observed: O, _ model: inout Model, _ predicted: Prediction<O>, _ others: inout [Model],
                                          predict: (inout Model) -> Prediction<O>) -> Prediction<O>? {
        var predictions: [Prediction<O>] = []
        for index in others.indices { predictions.append(predict(&others[index])) }
        let explaining = others.indices.filter { allows(predictions[$0], observed) }
        if allows(predicted, observed) {
            others = explaining.map { others[$0] }
            return predicted
        }
        guard let first = explaining.first else { return nil }
        model = others[first]
        others = explaining.dropFirst().map { others[$0] }
        return predictions[first]
    }
}
