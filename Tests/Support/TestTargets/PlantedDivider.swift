import GraphFuzzEngine

/// The test-only `planted-divider` target: `divide` answers 100 divided by its argument, wrongly for 7 (rule D1), and
/// traps on 0 (its divisor is not checked). Shrinking the wrong quotient meets candidates that divide by zero and take
/// the process running them down: what a shrink in a worker must survive. Registered only by `graph-fuzz-planted`.
public struct PlantedDividerMachine: StateMachine, Sendable {
    public static let rules = [
        Rule(id: "D1", statement: "divide(by:) answers 100 divided by its argument, and refuses 0", source: "test-only",
             confidence: "design"),
    ]

    public init() {}

    public func makeModel(_ config: NoConfig) -> Int { 0 }
    public func makeSystem(_ config: NoConfig) -> Int { 0 }

    public var actions: [Action<Self>] {
        [Action("divide", arguments: { args, _ in args.int("divisor", in: 0...9) },
                predict: { divisor, _ in Prediction(divisor == 0 ? "refused" : "\(100 / divisor)", rule: "D1") },
                perform: { divisor, _ in
                    let quotient = 100 / divisor  // planted: no check for 0, which traps
                    return divisor == 7 ? "\(quotient + 1)" : "\(quotient)"  // planted: wrong for 7
                })]
    }
}

extension Target {
    /// The test-only target whose wrong answer's shrink meets a trap.
    public static var plantedDivider: Target {
        Target(name: "planted-divider", summary: "test-only: a division wrong for 7 that traps on 0",
               rules: PlantedDividerMachine.rules, mutants: [], defaultSteps: 6, generatorVersion: "1") { _ in PlantedDividerMachine() }
    }
}
