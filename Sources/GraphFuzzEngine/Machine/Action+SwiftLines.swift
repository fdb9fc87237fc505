extension Action {
    /// An action whose steps an exported test writes as lines of your own (`SwiftExportable`), not one call.
    ///
    /// - Parameters:
    ///   - swiftLines: a step's lines in an exported test, given its arguments, the prediction, the step's trace
    ///     and whether it is the test's last step, which `#expect`s what the prediction allows (earlier steps
    ///     only run). Nil: the action is not exported. The other parameters are as for
    ///     `init(_:weight:when:arguments:predict:perform:swift:)`.
    @inlinable
    public init<A, O: Equatable>(_ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                                 arguments: @escaping (inout Arguments, M.Model) throws -> A,
                                 predict: @escaping (A, inout M.Model) -> Prediction<O>,
                                 perform: @escaping (A, inout M.System) throws -> O,
                                 swiftLines: ((_ arguments: A, _ predicted: Prediction<O>, _ trace: TraceStep, _ isLast: Bool) -> [String])?) {
        self.init(name, weights: nil, fixed: weight, when: precondition, arguments: arguments, predict: predict, perform: perform,
                  swiftLines: swiftLines)
    }

    /// An action whose weight depends on the model, with its steps written as lines of your own in an exported
    /// test (`swiftLines`, as above).
    @inlinable
    public init<A, O: Equatable>(_ name: String, weights: @escaping (M.Model) -> UInt32, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                                 arguments: @escaping (inout Arguments, M.Model) throws -> A,
                                 predict: @escaping (A, inout M.Model) -> Prediction<O>,
                                 perform: @escaping (A, inout M.System) throws -> O,
                                 swiftLines: ((_ arguments: A, _ predicted: Prediction<O>, _ trace: TraceStep, _ isLast: Bool) -> [String])?) {
        self.init(name, weights: weights, fixed: nil, when: precondition, arguments: arguments, predict: predict, perform: perform,
                  swiftLines: swiftLines)
    }
}
