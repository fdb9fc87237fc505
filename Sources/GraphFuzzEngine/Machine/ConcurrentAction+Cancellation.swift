extension Action {
    /// A concurrent action that the scheduler may cancel at one of its suspension points, as `Task.cancel()` from
    /// another task would (a drawn choice, shrunk towards no cancellation; `Scheduler.Options.cancelWithin`).
    ///
    /// A cancelled call may have done all its work before it noticed, or stopped: the specification says what it
    /// may observe and leave when it stops (`cancelled`). A branch that was cancelled while it ran is explained by
    /// `predict` or by `cancelled`, whichever allows what it observed (`predict` first), and the model goes on
    /// from the state that prediction leaves; a branch the cancellation did not reach is judged by `predict` alone.
    /// Code that leaves state half-updated when cancelled is caught where the half-update shows: in what the
    /// cancelled call observed, or in a later step or invariant.
    ///
    /// - Parameters:
    ///   - cancelled: what the specification allows a call cancelled at a suspension point to observe, and the
    ///     state it leaves (for a call that stops before it changes anything, the model unchanged).
    ///   - the others: as `concurrent(_:weight:when:arguments:predict:perform:joinsOnly:)`.
    @inlinable
    public static func concurrent<A: Sendable, O: Equatable & Sendable>(
        _ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
        arguments: @escaping (inout Arguments, M.Model) throws -> A,
        predict: @escaping (A, inout M.Model) -> Prediction<O>,
        cancelled: @escaping (A, inout M.Model) -> Prediction<O>,
        perform: @escaping @Sendable (A, M.System) async throws -> O,
        joinsOnly: Bool = false
    ) -> Action where M.System: Sendable {
        concurrent(name, weight: weight, when: precondition, arguments: arguments, predict: predict, cancelled: Optional(cancelled),
                   perform: perform, joinsOnly: joinsOnly)
    }
}
