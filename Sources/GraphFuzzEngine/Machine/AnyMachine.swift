/// A machine behind a type-erased interface, so the search, the corpus, the command line and benchmarks can
/// drive any target without knowing its types: run a case from a draw, run a chunk of a search's cases,
/// replay a trace — each as `RunOptions` say — and the modules its Swift export imports.
@usableFromInline package struct AnyMachine {
    /// Runs one case from a draw, with at most the given number of steps.
    @usableFromInline package let run: (Draw, Int, RunOptions) -> CaseResult
    /// Runs a search's chunk of cases (chunk, seed of the run, maxSteps, stop at the first failure), calling
    /// the last argument with each case's index and what the chunk did so far just before the case runs.
    @usableFromInline package let runChunk: (CaseChunk, UInt64, Int, Bool, (Int, ChunkReport) -> Void) -> ChunkReport
    /// Replays a trace (configuration, steps); errors name the step that cannot be read or applied.
    @usableFromInline package let replay: (TraceStep, [TraceStep], RunOptions) -> Result<CaseResult, TraceReplayError>
    /// The modules an exported Swift test imports (empty unless the machine is `SwiftExportable`), worked out when
    /// asked: a worker never asks.
    @usableFromInline package var swiftImports: [String] { imports() }
    @usableFromInline let imports: () -> [String]
    /// The machine's work for the process (`StateMachine.prepare`).
    @usableFromInline package let prepare: () -> Void

    @inlinable
    package init<M: StateMachine>(_ machine: M) {
        // The actions are read once: a machine's `actions` builds its closures on every read.
        let runner = MachineRunner(machine, maxSteps: 1)
        run = { draw, maxSteps, options in
            let sized = runner.with(maxSteps: maxSteps)
            return CaseResult(sized.run(draw, options), sized, options, consumed: draw.consumed)
        }
        runChunk = { chunk, seed, maxSteps, stopAtFirstFailure, willRunCase in
            runner.with(maxSteps: maxSteps).runChunk(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure, willRunCase: willRunCase)
        }
        replay = { config, steps, options in
            runner.replay(config: config, steps: steps, options).map { CaseResult($0, runner, options, consumed: Consumed()) }
        }
        imports = { AnyMachine.swiftImports(machine) }
        prepare = { machine.prepare() }
    }

    /// Runs one case from `draw` in a search: its outcome, steps and what it consumed.
    @usableFromInline package func run(_ draw: Draw, _ maxSteps: Int) -> CaseResult {
        run(draw, maxSteps, .search)
    }

    /// Re-runs a recorded choice sequence and describes it.
    @usableFromInline package func record(_ sequence: ChoiceSequence, _ maxSteps: Int) -> CaseRecord {
        run(Draw(replaying: sequence), maxSteps, .record).record!
    }

    /// Describes a case that crashed or hung at step `stop` in another process: runs the steps before it,
    /// generates and expects step `stop` without running it on the system, and leaves in `draw` the choices
    /// the case consumed up to that point. The record's outcome is `.pass`; the caller knows how the step ended.
    @usableFromInline package func recordPrefix(_ draw: Draw, _ maxSteps: Int, stoppingAt stop: Int) -> CaseRecord {
        run(draw, maxSteps, .prefix(stoppingAt: stop)).record!
    }

    /// Replays a trace and describes it (corpus); with `lastStepOnSystem` false, its last step is generated and
    /// expected but not run on the system (a `crash` or `hang` case).
    @usableFromInline package func replay(_ config: TraceStep, _ steps: [TraceStep], lastStepOnSystem: Bool = true) -> Result<CaseRecord, TraceReplayError> {
        let options = lastStepOnSystem ? RunOptions.record : .prefix(stoppingAt: Swift.max(0, steps.count - 1))
        return replay(config, steps, options).map { $0.record! }
    }

    /// The traces (configuration first) of a case generated from `draw` and run on the system, at most `maxSteps`
    /// steps, up to its failure if it fails: a concurrent step's schedule is drawn as its jobs run, so only a run
    /// makes its trace.
    @usableFromInline package func generateRunning(_ draw: Draw, _ maxSteps: Int) -> [TraceStep] {
        let record = run(draw, maxSteps, .record).record!
        return [record.config] + record.steps
    }

    /// The traces (configuration first) of a case generated from `draw` against the model alone, at most
    /// `maxSteps` steps; the system is never made or run.
    @usableFromInline package func generate(_ draw: Draw, _ maxSteps: Int) -> [TraceStep] {
        let record = run(draw, maxSteps, .generate).record!
        return [record.config] + record.steps
    }

    @usableFromInline package static func swiftImports<M: StateMachine>(_ machine: M) -> [String] {
        func imports<E: SwiftExportable>(_ machine: E) -> [String] { E.swiftImports }
        if let exporter = machine as? any SwiftExportable { return imports(exporter) }
        return []
    }
}
