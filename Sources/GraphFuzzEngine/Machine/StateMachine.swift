/// What the specification predicts a command observes, and the rule that decides it.
public struct Expectation<Observation: Equatable>: Equatable {
    /// The predicted observation.
    public var value: Observation
    /// Other observations the rule also allows (a concurrent step may see either of two values).
    public var alternatives: [Observation]
    /// The rule id that determines the observation; a mismatch is reported against it.
    public var rule: String

    @inlinable
    public init(_ value: Observation, rule: String, alternatives: [Observation] = []) {
        self.value = value
        self.rule = rule
        self.alternatives = alternatives
    }

    @inlinable
    public func allows(_ observed: Observation) -> Bool {
        observed == value || alternatives.contains(observed)
    }
}

/// A stateful test: a specification (the model) and a system under test stepped side by side.
///
/// Commands are generated from the current model state, so every generated command is meaningful
/// in the state it is applied to; objects created by earlier steps are referred to symbolically
/// (`Ref`). After each step the system's observation must be allowed by the model's expectation,
/// and the invariants must hold. The engine drives this protocol and knows nothing of what the
/// models are.
public protocol StateMachine {
    /// Per-case parameters (unknown evidence fuzzed both ways). Drawn first, printed in reports.
    associatedtype Config: TraceCodable = NoConfig
    /// The specification's state: pure value types, no I/O.
    associatedtype Model
    /// The system under test for one case.
    associatedtype System
    associatedtype Command: TraceCodable
    associatedtype Observation: Equatable & CustomStringConvertible

    func makeConfig(_ draw: Draw) -> Config
    func makeModel(_ config: Config) -> Model
    func makeSystem(_ config: Config) throws -> System

    /// The next command for this model state, or nil when none applies (the case ends).
    func nextCommand(_ model: Model, _ draw: Draw) -> Command?
    /// Whether `command` may run in this state. Re-checked when shrinking or replaying a trace,
    /// where a step can lose the state it relied on.
    func precondition(_ command: Command, _ model: Model) -> Bool
    /// Steps the specification: what `command` should observe. Mutates the model.
    func expect(_ command: Command, _ model: inout Model) -> Expectation<Observation>
    /// Runs `command` on the system and returns what it observed.
    func run(_ command: Command, _ system: inout System) throws -> Observation
    /// Compares the two observations. The default reports a mismatch against the expectation's rule.
    func compare(_ expected: Expectation<Observation>, _ observed: Observation, _ command: Command) -> Failure?
    /// Invariants over both states after every step.
    func checkInvariants(_ model: Model, _ system: System) -> Failure?
    /// Releases what the system holds (temporary folders, for example).
    func tearDown(_ system: inout System)

    /// Whether throughput benchmarks measure cases with this configuration. A target returns false
    /// for configurations that are I/O-bound by design (the cache's real-file-system cases), so the
    /// figures measure the harness and the code, not the disk. Searches always run every configuration.
    func isBenchmarked(_ config: Config) -> Bool
    /// The modules a reproduction imports (besides Testing).
    static var swiftImports: [String] { get }
    /// Swift source lines that set up a reproduction against the production API.
    func swiftSetup(_ config: Config) -> [String]
    /// Swift source lines that perform `command` against the production API.
    func swiftLines(_ command: Command, expected: Expectation<Observation>, isLast: Bool) -> [String]
}

extension StateMachine where Config == NoConfig {
    public func makeConfig(_ draw: Draw) -> NoConfig { NoConfig() }
}

extension StateMachine {
    @inlinable
    public func precondition(_ command: Command, _ model: Model) -> Bool { true }

    @inlinable
    public func compare(_ expected: Expectation<Observation>, _ observed: Observation, _ command: Command) -> Failure? {
        if expected.allows(observed) { return nil }
        return Failure(
            rule: expected.rule, kind: .mismatch,
            message: "\(command.trace): expected \(expected.value), observed \(observed)")
    }

    @inlinable
    public func isBenchmarked(_ config: Config) -> Bool { true }

    @inlinable
    public func checkInvariants(_ model: Model, _ system: System) -> Failure? { nil }
    @inlinable
    public func tearDown(_ system: inout System) {}
    public static var swiftImports: [String] { [] }
    public func swiftSetup(_ config: Config) -> [String] { ["// \(config.trace)"] }
    public func swiftLines(_ command: Command, expected: Expectation<Observation>, isLast: Bool) -> [String] {
        ["// \(command.trace)  → expect \(expected.value)"]
    }
}
