/// A case of a target as readable records: the configuration, the steps, the failure if any.
public struct CaseRecord: Sendable, Equatable {
    public var config: TraceStep
    public var steps: [TraceStep]
    /// What the specification predicted at each step, in the same order.
    public var expectations: [String]
    public var outcome: Outcome
    /// A Swift Testing test body reproducing the case against the production API.
    public var swiftLines: [String]
}

/// A machine behind a type-erased interface, so the command line, the corpus and benchmarks can
/// drive any target without knowing its types.
public struct AnyMachine {
    /// Runs one case from `draw`; returns the outcome and the number of steps run.
    public let run: (Draw, Int) -> (outcome: Outcome, steps: Int)
    /// Runs one case from `draw` like `run` and also returns what it exercised (merge the
    /// coverage of many cases for a coverage table).
    public let runCovered: (Draw, Int) -> (outcome: Outcome, steps: Int, coverage: Coverage)
    /// Runs a search's chunk of cases (chunk, seed of the run, maxSteps, stop at the first failure):
    /// what `runCovered` returns for each case, added up, without recording the cases' choices.
    public let runChunk: (CaseChunk, UInt64, Int, Bool) -> ChunkReport
    /// Runs a search's chunk of cases like `runChunk` (not stopping at a failure), calling the fourth
    /// argument with each case's index and what the chunk did so far just before the case runs (a
    /// worker process announces it to its parent).
    public let runChunkWatched: (CaseChunk, UInt64, Int, (Int, ChunkReport) -> Void) -> ChunkReport
    /// The modules an exported Swift test imports (empty unless the machine is `SwiftExportable`).
    public let swiftImports: [String]
    /// Re-runs a recorded sequence and describes it.
    public let record: (ChoiceSequence, Int) -> CaseRecord
    /// Replays a trace (corpus); errors name the step that cannot be read or applied.
    public let replay: (TraceStep, [TraceStep]) -> Result<CaseRecord, TraceReplayError>
    /// Measures throughput: (seed, cases, maxSteps, minimum seconds per measurement).
    public let measureThroughput: (UInt64, Int, Int, Double) -> Throughput
    /// Measures the configurations `measureThroughput` leaves out (on disk): (seed, cases,
    /// maxSteps, minimum seconds); nil when the machine leaves none out.
    public let measureOnDisk: (UInt64, Int, Int, Double) -> OnDiskThroughput?
    /// Describes a trace whose last step crashed or hung (a `crash` or `hang` corpus case) without
    /// running that step on the system: the steps before it run, the last is generated and expected.
    public let replayPrefix: (TraceStep, [TraceStep]) -> Result<CaseRecord, TraceReplayError>
    /// Runs one case from `draw` like `run`, calling the third argument with each step's 0-based
    /// index just before the system runs it (a worker process announces it to its parent).
    public let runWatched: (Draw, Int, @escaping (Int) -> Void) -> (outcome: Outcome, steps: Int)
    /// Describes a case that crashed or hung at step `stop` (third argument) in a worker process:
    /// runs the steps before it, generates and expects step `stop` without running it on the
    /// system, and leaves in `draw` the choices the case consumed up to that point. The record's
    /// outcome is `.pass`; the caller knows how the step ended.
    public let recordPrefix: (Draw, Int, Int) -> CaseRecord
    /// The traces (configuration first) of a case generated from `draw` against the model alone,
    /// at most the given number of steps; the system is never made or run.
    public let generate: (Draw, Int) -> [TraceStep]

    @inlinable
    public init<M: StateMachine>(_ machine: M) {
        // The actions are read once: a machine's `actions` builds its closures on every read.
        let runner = MachineRunner(machine, maxSteps: 1)
        run = { draw, maxSteps in
            let result = runner.with(maxSteps: maxSteps).run(draw, covers: false)
            return (result.outcome, result.commands.count)
        }
        runCovered = { draw, maxSteps in
            let result = runner.with(maxSteps: maxSteps).run(draw, covers: true)
            return (result.outcome, result.commands.count, result.coverage)
        }
        runChunk = { chunk, seed, maxSteps, stopAtFirstFailure in
            runner.with(maxSteps: maxSteps).runChunk(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure, covers: true)
        }
        runChunkWatched = { chunk, seed, maxSteps, willRunCase in
            runner.with(maxSteps: maxSteps).runChunk(chunk, seed: seed, stopAtFirstFailure: false, covers: true, willRunCase: willRunCase)
        }
        swiftImports = AnyMachine.swiftImports(machine)
        measureThroughput = { seed, cases, maxSteps, seconds in
            runner.with(maxSteps: maxSteps).measureThroughput(seed: seed, cases: cases, minimumSeconds: seconds)
        }
        measureOnDisk = { seed, cases, maxSteps, seconds in
            runner.with(maxSteps: maxSteps).measureOnDisk(seed: seed, cases: cases, minimumSeconds: seconds)
        }
        record = { sequence, maxSteps in
            let result = runner.with(maxSteps: maxSteps).run(Draw(replaying: sequence), keepSteps: true)
            return AnyMachine.describe(machine, result)
        }
        replay = { configStep, traceSteps in AnyMachine.replay(runner, configStep, traceSteps, systemSteps: .max) }
        replayPrefix = { configStep, traceSteps in
            AnyMachine.replay(runner, configStep, traceSteps, systemSteps: Swift.max(0, traceSteps.count - 1))
        }
        runWatched = { draw, maxSteps, willRunStep in
            let result = runner.with(maxSteps: maxSteps).run(draw, keepSteps: false, systemSteps: .max, willRunStep: willRunStep, covers: false)
            return (result.outcome, result.commands.count)
        }
        recordPrefix = { draw, maxSteps, stop in
            let result = runner.with(maxSteps: maxSteps).run(draw, keepSteps: true, systemSteps: stop)
            return AnyMachine.describe(machine, result)
        }
        generate = { draw, maxSteps in
            let (config, commands) = runner.with(maxSteps: maxSteps).generate(draw)
            return [config.trace] + commands.map(\.trace)
        }
    }

    @usableFromInline
    static func replay<M: StateMachine>(_ runner: MachineRunner<M>, _ configStep: TraceStep, _ traceSteps: [TraceStep],
                                        systemSteps: Int) -> Result<CaseRecord, TraceReplayError> {
        let config: M.Config
        do throws(TraceError) { config = try M.Config(trace: configStep) } catch {
            return .failure(TraceReplayError(step: nil, message: error.message))
        }
        switch runner.with(maxSteps: Swift.max(1, traceSteps.count)).replay(config: config, traces: traceSteps, systemSteps: systemSteps) {
        case .success(let result): return .success(AnyMachine.describe(runner.machine, result))
        case .failure(let error): return .failure(TraceReplayError(step: error.step, message: error.message))
        }
    }

    @usableFromInline
    static func describe<M: StateMachine>(_ machine: M, _ result: MachineRun<M>) -> CaseRecord {
        CaseRecord(
            config: result.config.trace, steps: result.steps.map(\.step.trace),
            expectations: result.steps.map { "\($0.predicted.value) [\($0.predicted.rule)]" },
            outcome: result.outcome, swiftLines: swiftLines(machine, result))
    }

    /// The reproduction as Swift lines: the machine's own when it is `SwiftExportable`, else comments.
    @usableFromInline
    static func swiftLines<M: StateMachine>(_ machine: M, _ result: MachineRun<M>) -> [String] {
        if let exporter = machine as? any SwiftExportable { return exported(exporter, result) }
        return ["// \(result.config.trace)"] + result.steps.map { "// \($0.step.trace)  → expect \($0.predicted.value)" }
    }

    static func exported<E: SwiftExportable, M: StateMachine>(_ machine: E, _ result: MachineRun<M>) -> [String] {
        var swift = machine.swiftSetup(result.config as! E.Config)
        for (index, executed) in result.steps.enumerated() {
            let predicted = Prediction(executed.predicted.value as! E.Observation, rule: executed.predicted.rule,
                                       alternatives: executed.predicted.alternatives.map { $0 as! E.Observation })
            swift += machine.swiftLines(executed.step.command as! E.Command, executed.step.trace, predicted: predicted,
                                        isLast: index == result.steps.count - 1)
        }
        return swift
    }

    @usableFromInline
    static func swiftImports<M: StateMachine>(_ machine: M) -> [String] {
        func imports<E: SwiftExportable>(_ machine: E) -> [String] { E.swiftImports }
        if let exporter = machine as? any SwiftExportable { return imports(exporter) }
        return []
    }
}

/// A trace that cannot be replayed; `step` is the 0-based step index (nil for the configuration).
public struct TraceReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    public var step: Int?
    public var message: String
    public init(step: Int?, message: String) {
        self.step = step
        self.message = message
    }
    public var description: String { message }
}
