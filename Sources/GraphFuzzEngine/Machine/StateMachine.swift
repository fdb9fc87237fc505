/// A stateful test: a specification (the model) and a system under test stepped side by side, declared as a
/// list of actions (Hypothesis' `RuleBasedStateMachine`, proptest's `ReferenceStateMachine` +
/// `StateMachineTest`).
///
/// Required: `actions`, `makeModel`, `makeSystem`. Everything else has a default: `makeConfig` (when
/// `Config` is `NoConfig`), `invariants` (none), `concurrentSteps` (`ConcurrentSteps()`), `tearDown` (nothing) and
/// `usingScratchFolder` (the machine itself). Swift export is the optional `SwiftExportable`.
///
/// Each step, the engine chooses among the actions enabled for the case (swarm testing) whose precondition
/// holds on the model — a failed precondition never rejects a case — draws the action's arguments from the
/// model, and checks the system's observation against the prediction.
public protocol StateMachine {
    /// Per-case parameters (unknown evidence fuzzed both ways), drawn through `Arguments` before the first
    /// step: their trace (`config(capacity: 3)`) is derived as a step's is, printed in reports and read back
    /// when a trace is replayed.
    associatedtype Config = NoConfig
    /// The specification's state: pure value types, no I/O.
    associatedtype Model
    /// The system under test for one case.
    associatedtype System

    /// The actions, in a fixed order (the first is the simplest: shrinking moves towards it).
    var actions: [Action<Self>] { get }
    /// Checks over both states after every step, each under its rule.
    var invariants: [Invariant<Self>] { get }
    /// How concurrent steps are drawn and scheduled, for a machine with `Action.concurrent` actions.
    var concurrentSteps: ConcurrentSteps { get }

    /// Draws the configuration (`args.int("capacity", in: 1...4)`).
    func makeConfig(_ args: inout Arguments) -> Config
    /// Whether some configuration can start a case further on than another (a richer start: things made before
    /// the first step), so that a configuration choice may stand for the steps that built the same state; the
    /// shrinker then tries configurations in place of early steps. False for a configuration that only says how
    /// the case runs (parameters fuzzed both ways, a backend) from the same start: the shrinker then tries no
    /// configuration together with fewer steps (a parameter's other value under which a failure shows sooner is
    /// then found only by lowering it). The default is true.
    var configurationStandsForSteps: Bool { get }
    func makeModel(_ config: Config) -> Model
    func makeSystem(_ config: Config) throws -> System
    /// Releases what the system holds (temporary folders, for example).
    func tearDown(_ system: inout System)
    /// Does, once for the process, the work every case of this machine repeats the first time only (schemas derived
    /// from model classes, tables the checks read), without running a case: a process that starts its workers as
    /// forks of itself calls it first, so each worker starts with that work done. Nothing that writes files or can
    /// trap. The default does nothing.
    func prepare()
    /// The same machine, keeping the files its cases make (store files, folders) in `folder`: a folder the harness
    /// made for the process running the cases and removes however that process ends (a worker's is removed when the
    /// worker dies, mid-case or not). A machine whose cases make files elsewhere leaves them behind when a case
    /// takes its worker down. The default is the machine itself, for a machine that makes no files.
    func usingScratchFolder(_ folder: String) -> Self
}

extension StateMachine where Config == NoConfig {
    public func makeConfig(_ args: inout Arguments) -> NoConfig { NoConfig() }
}

extension StateMachine {
    public var invariants: [Invariant<Self>] { [] }

    public var configurationStandsForSteps: Bool { true }

    public func prepare() {}

    public var concurrentSteps: ConcurrentSteps { ConcurrentSteps() }

    @inlinable
    public func tearDown(_ system: inout System) {}

    @inlinable
    public func usingScratchFolder(_ folder: String) -> Self { self }
}

/// A machine that declares the rules its predictions and invariants decide, so a check of it can say which rule it
/// never exercised (a registered `Target` declares them itself).
public protocol RuleDeclaring: StateMachine {
    var rules: [Rule] { get }
}

/// A machine whose failing cases can be printed as Swift tests against the production API: the setup here,
/// each step's lines from its action (`Action(…, swift:)`).
public protocol SwiftExportable: StateMachine {
    /// The modules a reproduction imports (besides Testing).
    static var swiftImports: [String] { get }
    /// Swift source lines that set up a reproduction.
    func swiftSetup(_ config: Config) -> [String]
}

/// A machine whose configuration reads better declared than traced (a drawn schema, say): a failure's report
/// prints these lines under the configuration's trace, so a shrunk case shows what its shrunk choices declare.
public protocol ConfigDescribing: StateMachine {
    /// Lines declaring `config` (empty: the trace says it all).
    func describe(_ config: Config) -> [String]
}

/// A machine that leaves some configurations out of throughput benchmarks (I/O-bound by design), so the
/// figures measure the harness and the code, not the disk. Searches run every configuration.
package protocol Benchmarkable: StateMachine {
    func isBenchmarked(_ config: Config) -> Bool
}
