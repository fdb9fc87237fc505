/// A stateful test: a specification (the model) and a system under test stepped side by side,
/// declared as a list of actions (Hypothesis' `RuleBasedStateMachine`, proptest's
/// `ReferenceStateMachine` + `StateMachineTest`).
///
/// Required: `actions`, `makeModel`, `makeSystem`. Everything else has a default: `makeConfig`
/// (when `Config` is `NoConfig`), `invariants` (none), `precondition` (every replayed command is
/// allowed), `compare` (a mismatch against the prediction's rule) and `tearDown` (nothing).
/// Swift export (`SwiftExportable`) and benchmark filtering (`Benchmarkable`) are separate protocols.
///
/// Each step, the engine chooses among the actions enabled for the case (swarm testing) whose
/// precondition holds on the model — a failed precondition never rejects a case — draws the
/// action's arguments from the model, and checks the system's observation against the prediction.
public protocol StateMachine {
    /// Per-case parameters (unknown evidence fuzzed both ways). Drawn first, printed in reports.
    associatedtype Config: TraceCodable = NoConfig
    /// The specification's state: pure value types, no I/O.
    associatedtype Model
    /// The system under test for one case.
    associatedtype System
    /// One step's arguments; its trace is derived from how the action drew it (see `Arguments`).
    /// Left at `Any`, each action takes arguments of its own type.
    associatedtype Command = Any
    associatedtype Observation: Equatable & CustomStringConvertible

    /// The actions, in a fixed order (the first is the simplest: shrinking moves towards it).
    var actions: [Action<Self>] { get }
    /// Checks over both states after every step, each under its rule id.
    var invariants: [Invariant<Self>] { get }

    func makeConfig(_ draw: Draw) -> Config
    func makeModel(_ config: Config) -> Model
    func makeSystem(_ config: Config) throws -> System

    /// Whether a command read from a trace (corpus replay) may run in this state; a generated
    /// command always may. The default allows every command.
    func precondition(_ command: Command, _ model: Model) -> Bool
    /// Explains a mismatch: called only when `observed` is not an observation the prediction allows
    /// (`Prediction.allows`), so `step` (the step's trace) is rendered only then. Returns nil to
    /// accept the observation after all. The default reports a mismatch against the prediction's rule.
    func compare(_ predicted: Prediction<Observation>, _ observed: Observation, _ step: TraceStep) -> Failure?
    /// Releases what the system holds (temporary folders, for example).
    func tearDown(_ system: inout System)
}

extension StateMachine where Config == NoConfig {
    public func makeConfig(_ draw: Draw) -> NoConfig { NoConfig() }
}

extension StateMachine {
    public var invariants: [Invariant<Self>] { [] }

    @inlinable
    public func precondition(_ command: Command, _ model: Model) -> Bool { true }

    @inlinable
    public func compare(_ predicted: Prediction<Observation>, _ observed: Observation, _ step: TraceStep) -> Failure? {
        if predicted.allows(observed) { return nil }
        return Failure(rule: predicted.rule, kind: .mismatch, message: "\(step): expected \(predicted.value), observed \(observed)")
    }

    @inlinable
    public func tearDown(_ system: inout System) {}
}

/// A machine whose failing cases can be printed as Swift tests against the production API.
public protocol SwiftExportable: StateMachine {
    /// The modules a reproduction imports (besides Testing).
    static var swiftImports: [String] { get }
    /// Swift source lines that set up a reproduction.
    func swiftSetup(_ config: Config) -> [String]
    /// Swift source lines that perform `command` (written `step` in the trace); the last step
    /// asserts the prediction.
    func swiftLines(_ command: Command, _ step: TraceStep, predicted: Prediction<Observation>, isLast: Bool) -> [String]
}

/// A machine that leaves some configurations out of throughput benchmarks (I/O-bound by design),
/// so the figures measure the harness and the code, not the disk. Searches run every configuration.
public protocol Benchmarkable: StateMachine {
    func isBenchmarked(_ config: Config) -> Bool
}
