/// Where a case's configuration and steps come from: a draw (generation, search, shrinking, fuzzing), its spans marked
/// only when it keeps a record, or a recorded trace, configuration first (corpus replay; the draw is then never asked).
/// The step loop asks it for each step's action (`MachineRunner.drawStep`, `readStep`); the rest of a step is the same
/// whichever it is.
@usableFromInline package struct CaseSource {
    @usableFromInline let draw: Draw
    /// Whether the draw marks spans (it keeps a record).
    @usableFromInline let spans: Bool
    /// The trace read, nil when the case is drawn.
    @usableFromInline let trace: (config: TraceStep, steps: [TraceStep])?

    /// A case drawn from `draw`.
    @inlinable
    package static func draw(_ draw: Draw) -> CaseSource { CaseSource(draw: draw, spans: draw.keepsRecord, trace: nil) }

    /// A case read from a trace: its configuration and its steps.
    @inlinable
    package static func trace(config: TraceStep, steps: [TraceStep]) -> CaseSource {
        CaseSource(draw: Draw(replaying: ChoiceSequence([])), spans: false, trace: (config, steps))
    }

    @inlinable
    init(draw: Draw, spans: Bool, trace: (config: TraceStep, steps: [TraceStep])?) {
        self.draw = draw
        self.spans = spans
        self.trace = trace
    }
}

/// How a case runs: what it keeps, what it counts, and how far the system goes.
@usableFromInline package struct RunOptions {
    /// Keep each step's trace and prediction (and the configuration's trace) for a record of the case.
    @usableFromInline package var records: Bool
    /// With `records`: also render the case as Swift lines (`CaseRecord.swiftLines`).
    @usableFromInline package var exports: Bool
    /// Count what the case exercised (coverage).
    @usableFromInline package var covers: Bool
    /// Steps from this index on are not run on the system: the step at this index is generated and
    /// predicted (and recorded), then the case ends with `.pass` — to describe a case that crashed or hung
    /// at that step in another process without running it again.
    @usableFromInline package var systemSteps: Int
    /// False: the system is never made or run; every step is generated and predicted against the model
    /// alone (fingerprints of the generators, conversions of choices), until the draw stops.
    @usableFromInline package var makesSystem: Bool
    /// Told each step's 0-based index just before the system runs it (a worker announces it to its parent).
    @usableFromInline package var willRunStep: ((Int) -> Void)?
    /// Whether a step's mismatch is written out (`Failure.message`: the step, what was expected and what was
    /// observed). False for a shrink candidate, which is judged by its failure's signature alone: the rule, the kind
    /// and the detail are the same either way, and the shrunk case is described by a run of its own.
    @usableFromInline package var describesFailures: Bool

    @usableFromInline package init(records: Bool = false, exports: Bool = false, covers: Bool = false, systemSteps: Int = .max, makesSystem: Bool = true,
                 describesFailures: Bool = true, willRunStep: ((Int) -> Void)? = nil) {
        self.records = records
        self.exports = exports
        self.covers = covers
        self.systemSteps = systemSteps
        self.makesSystem = makesSystem
        self.describesFailures = describesFailures
        self.willRunStep = willRunStep
    }

    /// A search's case: the outcome alone.
    @usableFromInline package static var search: RunOptions { RunOptions() }
    /// A shrink candidate: the outcome alone, a mismatch not written out (`describesFailures`).
    @usableFromInline package static var candidate: RunOptions { RunOptions(describesFailures: false) }
    /// A case recorded and described (its steps, expectations and Swift lines).
    @usableFromInline package static var record: RunOptions { RunOptions(records: true, exports: true) }
    /// A case recorded up to step `stop`, which is predicted but not run on the system.
    @usableFromInline package static func prefix(stoppingAt stop: Int) -> RunOptions { RunOptions(records: true, exports: true, systemSteps: stop) }
    /// A case generated against the model alone, its traces recorded.
    @usableFromInline package static var generate: RunOptions { RunOptions(records: true, makesSystem: false) }
}

/// The result of running one case of a state machine.
@usableFromInline package struct MachineRun<M: StateMachine> {
    @usableFromInline package var outcome: Outcome
    /// Steps run, up to and including a failing one.
    @usableFromInline package var steps: Int
    @usableFromInline package var config: M.Config
    /// The configuration's trace (its arguments only when the run records or replays).
    @usableFromInline package var configTrace: TraceStep
    /// What the steps left, when the run records.
    @usableFromInline var records: [RecordedStep]
    /// What the case exercised (empty unless the run covers).
    @usableFromInline package var coverage: Coverage

    @inlinable
    init(outcome: Outcome, steps: Int, config: M.Config, configTrace: TraceStep, records: [RecordedStep], coverage: Coverage) {
        self.outcome = outcome
        self.steps = steps
        self.config = config
        self.configTrace = configTrace
        self.records = records
        self.coverage = coverage
    }

    /// The recorded steps' traces.
    @usableFromInline package var traces: [TraceStep] { records.map(\.trace) }
    /// What the specification predicted at each recorded step: `value [rule]`.
    @usableFromInline package var expectations: [String] { records.map(\.expectation) }
}

/// Runs cases of a state machine with one step loop (`runCase`), from choices (search, shrinking, fuzzing)
/// or from a trace (corpus replay), recording or not, the system run or not (`RunOptions`).
///
/// A generated case draws, in order: the configuration (span `.config`); which actions the case may use
/// (span `.swarm`, swarm testing: zero means all); then each step in a `.step` span — a continue flag, the
/// action among the enabled ones whose precondition holds (span `.command`), and the action's arguments.
@usableFromInline package struct MachineRunner<M: StateMachine> {
    /// The machine, its actions, invariants and plan, shared by every runner made from it (`with(maxSteps:)`):
    /// one reference, so copying a runner costs one retain.
    @usableFromInline let shared: Shared
    /// The most steps a generated case takes.
    @usableFromInline package let maxSteps: Int

    @usableFromInline package var machine: M { shared.machine }
    @inlinable var actions: [Action<M>] { shared.actions }
    @inlinable var invariants: [Invariant<M>] { shared.invariants }
    /// What every case starts from, built once per runner: the actions' names and weights.
    @inlinable var plan: Plan { shared.plan }

    @inlinable
    package init(_ machine: M, maxSteps: Int) {
        self.init(Shared(machine), maxSteps: maxSteps)
    }

    @inlinable
    init(_ shared: Shared, maxSteps: Int) {
        self.shared = shared
        self.maxSteps = Swift.max(1, maxSteps)
    }

    /// The same machine with another step limit (shares the actions: `machine.actions` builds its closures
    /// anew on every read, so they are read once per machine).
    @inlinable
    package func with(maxSteps: Int) -> MachineRunner {
        MachineRunner(shared, maxSteps: maxSteps)
    }

    @usableFromInline final class Shared {
        @usableFromInline let machine: M
        @usableFromInline let actions: [Action<M>]
        @usableFromInline let invariants: [Invariant<M>]
        @usableFromInline let plan: Plan
        /// The actions' names, for coverage.
        @usableFromInline let names: [String]
        /// Whether throughput benchmarks measure a configuration (nil: every one; `Benchmarkable`).
        @usableFromInline let isBenchmarked: ((M.Config) -> Bool)?
        /// Whether some action may run concurrently (`Action.concurrent`): only then does the step loop look
        /// for concurrent steps.
        @usableFromInline let hasConcurrent: Bool
        /// The machine's `concurrentSteps`, the actions that cannot run concurrently, and the check of
        /// concurrent steps' observations.
        @usableFromInline let concurrency: ConcurrentSteps
        @usableFromInline let sequentialActions: [Int]
        /// The concurrent actions never drawn as a step's first action (`Action.concurrent(joinsOnly:)`).
        @usableFromInline let joiningActions: [Int]
        @usableFromInline let linearizability: Linearizability<M.Model>

        @usableFromInline
        init(_ machine: M) {
            self.machine = machine
            let actions = machine.actions
            self.actions = actions
            invariants = machine.invariants
            plan = Plan(actions)
            names = actions.map(\.name)
            isBenchmarked = benchmarkFilter(machine)
            hasConcurrent = actions.contains { $0.concurrent != nil }
            concurrency = hasConcurrent ? machine.concurrentSteps : ConcurrentSteps()
            sequentialActions = actions.indices.filter { actions[$0].concurrent == nil }
            joiningActions = actions.indices.filter { actions[$0].concurrent?.joinsOnly == true }
            linearizability = hasConcurrent ? Linearizability.forModel(M.Model.self) : Linearizability(equal: nil)
        }
    }

    /// Per-runner constants of the step loop.
    @usableFromInline
    struct Plan {
        /// The fixed weights of all actions (0 where the weight depends on the model).
        @usableFromInline let fixedWeights: [UInt32]
        /// The actions whose weight depends on the model.
        @usableFromInline let modelWeighted: [Int]
        /// Every action enabled (the swarm's usual draw).
        @usableFromInline let allEnabled: [Bool]

        @inlinable
        init(_ actions: [Action<M>]) {
            fixedWeights = actions.map { $0.fixedWeight ?? 0 }
            modelWeighted = actions.indices.filter { actions[$0].fixedWeight == nil }
            allEnabled = Array(repeating: true, count: actions.count)
        }
    }

    /// Probability of drawing another step: the expected length is about `maxSteps` before the cap.
    @usableFromInline
    var continueProbability: Double { 1 - 1 / Double(maxSteps + 1) }

    /// The buffers a case uses — the steps' arguments and counts, the chooser, the records — kept across the
    /// cases of a chunk so each case allocates nothing of its own; and the machine's actions and invariants, read
    /// once (each read of the runner's shared arrays is a retain and a release).
    @usableFromInline
    struct Scratch {
        @usableFromInline var io: StepIO
        @usableFromInline var chooser: Chooser
        @usableFromInline var records: [RecordedStep] = []
        /// The states a concurrent step starts from (the model, then the others), emptied after each such step.
        @usableFromInline var states: [M.Model] = []
        @usableFromInline let actions: [Action<M>]
        @usableFromInline let invariants: [Invariant<M>]

        @inlinable
        init(_ arguments: Arguments, actions: [Action<M>], invariants: [Invariant<M>], options: RunOptions) {
            self.actions = actions
            self.invariants = invariants
            io = StepIO(arguments: arguments, tally: Tally(actions: actions.count, counts: options.covers), records: options.records,
                        describesFailures: options.describesFailures, willPerform: options.willRunStep)
            chooser = Chooser(actions: actions, counts: options.covers)
        }
    }

    /// How a case ended: its outcome and steps, the configuration, and a replay that could not go on.
    @usableFromInline
    struct CaseEnd {
        @usableFromInline var outcome: Outcome
        @usableFromInline var steps: Int
        @usableFromInline var config: M.Config?
        /// The configuration's trace, when the case recorded or replayed one.
        @usableFromInline var configTrace: TraceStep?
        @usableFromInline var refused: TraceReplayError?

        @inlinable
        init(_ outcome: Outcome, _ steps: Int, _ config: M.Config?, _ configTrace: TraceStep?, refused: TraceReplayError? = nil) {
            self.outcome = outcome
            self.steps = steps
            self.config = config
            self.configTrace = configTrace
            self.refused = refused
        }
    }

    /// What a step did: its verdict (a failure, a fault or a trace step that could not be read is left in the step's
    /// `StepIO`), the references it created, and whether the case ends after it as a pass (a concurrent step whose
    /// states grew past what the runner follows).
    @usableFromInline
    struct StepEnd {
        @usableFromInline var verdict: StepVerdict
        @usableFromInline var created = 0
        @usableFromInline var endsCase = false

        @inlinable
        init(_ verdict: StepVerdict, created: Int = 0) {
            self.verdict = verdict
            self.created = created
        }
    }

    /// The one step loop: runs a case from `source` as `options` say, with `scratch`'s buffers.
    ///
    /// The configuration comes first (drawn, then the swarm; or read), then the model and the system; then each step
    /// comes from the source (drawn: a continue flag and an action whose precondition holds; read: the action of the
    /// trace step's name), runs (`run`: the action's arguments, the prediction and — unless the system stops before
    /// it, or there is none — the system, judged), and ends the case or lets it go on (`after`): the invariants follow
    /// a step that passed.
    @inlinable
    func runCase(_ source: CaseSource, _ options: RunOptions, _ scratch: inout Scratch) -> CaseEnd {
        if options.records { scratch.records.removeAll(keepingCapacity: true) }
        let (made, configTrace, refused) = makeConfig(source, options, &scratch)
        guard let config = made else { return CaseEnd(.rejected, 0, nil, configTrace, refused: refused) }
        if options.covers { scratch.io.tally.cases += 1 }
        // After a concurrent step the system may be in any of several states: `model` and `others`.
        var model = machine.makeModel(config)
        var others: [M.Model] = []
        var system: M.System?
        if options.makesSystem {
            do { system = try machine.makeSystem(config) } catch {
                return CaseEnd(Self.setupOutcome(error), 0, config, configTrace)
            }
        }
        defer { if system != nil { machine.tearDown(&system!) } }
        var index = 0
        var refs = 0
        // Read once per case, not at every step.
        let draw = source.draw, spans = source.spans, reading = source.trace != nil
        while true {
            let next = reading ? readStep(index, refs: refs, source, options, &scratch, &model, &others, &system)
                : drawStep(index, refs: refs, draw, spans: spans, options, &scratch, &model, &others, &system)
            guard let step = next else { return CaseEnd(.pass, index, config, configTrace) }
            // Only a step read from a trace is refused.
            if reading, let refused = scratch.io.refused.take() { return CaseEnd(.rejected, index, config, configTrace, refused: refused) }
            if options.records, let record = scratch.io.record {
                scratch.records.append(record)
                scratch.io.record = nil
            }
            if let (outcome, steps) = after(step, index, &scratch, &model, &others, system) { return CaseEnd(outcome, steps, config, configTrace) }
            refs += step.created
            index += 1
        }
    }

    /// The case's configuration, drawn (and the swarm after it: which actions the case may use) or read from the
    /// trace, and its trace when the case records or reads one; nil with why when the trace's cannot be read.
    @inlinable @inline(__always)
    func makeConfig(_ source: CaseSource, _ options: RunOptions, _ scratch: inout Scratch)
    -> (config: M.Config?, trace: TraceStep?, refused: TraceReplayError?) {
        guard let read = source.trace?.config else {
            let draw = source.draw, spans = source.spans
            scratch.io.arguments.begin(nextRef: Ref(0), tracesCoded: options.records)
            // A search's configuration is not traced: a failing case is run again, recorded, to describe it.
            scratch.io.arguments.keepsValues = options.records
            if spans { draw.beginSpan(machine.configurationStandsForSteps ? .config : .parameters) }
            let config = machine.makeConfig(&scratch.io.arguments)
            if spans { draw.endSpan() }
            scratch.io.arguments.keepsValues = true
            let trace = options.records ? TraceStep("config", scratch.io.arguments.recorded) : nil
            if spans { draw.beginSpan(.swarm) }
            let enabled = swarm(draw)
            if spans { draw.endSpan() }
            scratch.chooser.start(enabled: enabled, plan: plan)
            return (config, trace, nil)
        }
        guard read.name == "config" else {
            return (nil, read, TraceReplayError(step: nil, message: "expected 'config(…)', found '\(read.name)'"))
        }
        scratch.io.arguments.begin(reading: read, nextRef: Ref(0))
        let config = machine.makeConfig(&scratch.io.arguments)
        if let error = scratch.io.arguments.failure { return (nil, read, TraceReplayError(step: nil, message: error.message)) }
        return (config, read, nil)
    }

    /// Draws step `index` and runs it: its continue flag, its action among the enabled ones whose precondition holds
    /// (span `.command`; another when the one drawn finds no arguments that fit), and the action's step. Nil: the case
    /// ends before it (the flag said stop, no action applies, or `maxSteps` steps have run).
    @inlinable
    func drawStep(_ index: Int, refs: Int, _ draw: Draw, spans: Bool, _ options: RunOptions, _ scratch: inout Scratch,
                  _ model: inout M.Model, _ others: inout [M.Model], _ system: inout M.System?) -> StepEnd? {
        guard index < maxSteps else { return nil }
        if spans { draw.beginSpan(.step) }
        defer { if spans { draw.endSpan() } }
        guard draw.chooseBool(probability: continueProbability) else { return nil }
        scratch.chooser.begin(model)
        // Only a machine with concurrent actions has joining ones; any other starts from an empty list, which
        // retains nothing (a copy of the runner's list is a retain and a release at every step).
        var excluded = shared.hasConcurrent ? shared.joiningActions : []
        while true {
            if spans { draw.beginSpan(.command) }
            let next = scratch.chooser.choose(model, excluded: excluded, draw)
            if spans { draw.endSpan() }
            guard let a = next else { return nil }
            scratch.io.arguments.begin(nextRef: Ref(refs), tracesCoded: options.records)
            let step = run(a, .draw(draw, spans: spans), index, refs: refs, options, &scratch, &model, &others, &system)
            guard case .unavailable = step.verdict else { return step }
            excluded.append(a)
        }
    }

    /// Reads step `index` of the trace and runs it: the action of its name, its arguments read back (a
    /// `concurrently(…)` step: its branches and schedule). Nil: the trace has no more steps. A step that cannot be
    /// read or applied in the state the earlier steps leave is refused (`StepIO.refused`).
    @inlinable
    func readStep(_ index: Int, refs: Int, _ source: CaseSource, _ options: RunOptions, _ scratch: inout Scratch,
                  _ model: inout M.Model, _ others: inout [M.Model], _ system: inout M.System?) -> StepEnd? {
        let traces = source.trace!.steps
        guard index < traces.count else { return nil }
        let trace = traces[index]
        let found = actions.firstIndex { $0.name == trace.name }
        // `concurrently(…)`: a concurrent step of several actions, or of one in a schedule of its own.
        let isGroup = shared.hasConcurrent && found == nil && trace.name == Self.groupStepName
        guard let a = found ?? (isGroup ? 0 : nil) else {
            scratch.io.refused = TraceReplayError(step: index, message: "step \(index + 1) '\(trace)': unknown step '\(trace.name)' "
                                                  + "(expected one of \(actions.map(\.name).joined(separator: ", ")))")
            return StepEnd(.unavailable)
        }
        scratch.io.arguments.begin(reading: trace, nextRef: Ref(refs))
        let step = run(a, isGroup ? .group(trace) : .trace(trace), index, refs: refs, options, &scratch, &model, &others, &system)
        if scratch.io.refused == nil, case .unavailable = step.verdict {
            let message = scratch.io.arguments.failure.map { "step \(index + 1) '\(trace)': \($0.message)" }
                ?? "step \(index + 1) '\(trace)' cannot be applied in the state the earlier steps leave (a reference or precondition no longer holds)"
            scratch.io.refused = TraceReplayError(step: index, message: message)
        }
        return step
    }

    /// Runs action `a` as step `index`, its arguments begun: a concurrent step (`concurrentStep`) when the action may
    /// run concurrently or the trace step is a `concurrently(…)` one, else the action's own step over the states the
    /// system may be in.
    @inlinable
    func run(_ a: Int, _ source: GroupSource, _ index: Int, refs: Int, _ options: RunOptions, _ scratch: inout Scratch,
             _ model: inout M.Model, _ others: inout [M.Model], _ system: inout M.System?) -> StepEnd {
        scratch.io.action = a
        scratch.io.index = index
        scratch.io.performs = system != nil && index < options.systemSteps
        let concurrent = shared.hasConcurrent
        if concurrent, scratch.actions[a].concurrent != nil || source.isGroup {
            return concurrentStep(a, source, options, &scratch, &model, &others, &system, refs: refs)
        }
        let verdict: StepVerdict
        if !concurrent || others.isEmpty {
            verdict = scratch.actions[a].step(&scratch.io, &model, &system)
        } else {
            // Several states the system may be in: the step judges among them through `StepIO.others`.
            verdict = withUnsafeMutablePointer(to: &others) { states in
                scratch.io.others = UnsafeMutableRawPointer(states)
                defer { scratch.io.others = nil }
                return scratch.actions[a].step(&scratch.io, &model, &system)
            }
        }
        return StepEnd(verdict, created: scratch.io.arguments.created == nil ? 0 : 1)
    }

    /// How the case goes on after step `index` ended as `step`: nil with the next step, else its outcome and the steps
    /// it ran. The invariants follow a step that passed.
    @inlinable
    func after(_ step: StepEnd, _ index: Int, _ scratch: inout Scratch, _ model: inout M.Model, _ others: inout [M.Model],
               _ system: M.System?) -> (Outcome, steps: Int)? {
        switch step.verdict {
        case .passed:
            if !scratch.invariants.isEmpty,
               var failure = others.isEmpty ? Self.checkInvariants(scratch.invariants, model, system!, tally: &scratch.io.tally)
                : Self.checkInvariants(scratch.invariants, &model, &others, system!, tally: &scratch.io.tally) {
                failure.step = index
                return (.fail(failure), index + 1)
            }
            return step.endsCase ? (.pass, index + 1) : nil
        case .unavailable:
            return nil
        case .rejected:
            return (.rejected, index)
        case .predicted:
            // The system stops before this step; without a system, the case goes on against the model.
            return system != nil ? (.pass, index + 1) : nil
        case .failed:
            var failure = scratch.io.failure.take()!
            failure.step = index
            return (.fail(failure), index + 1)
        case .harnessFault:
            return (.harnessFault(scratch.io.fault.take()!), index + 1)
        }
    }

    /// Swarm testing (Groce et al., ISSTA 2012): half the cases use every action; the others leave each action
    /// out with probability 1/2, so some cases never dilute a rare action's effect.
    @inlinable
    func swarm(_ draw: Draw) -> [Bool] {
        guard actions.count > 1, draw.chooseBool(probability: 0.25) else { return plan.allEnabled }
        return actions.map { _ in !draw.chooseBool() }
    }

    /// The outcome of a case whose system could not be made: a harness fault, or a failure of "setup".
    @inlinable
    static func setupOutcome(_ error: any Error) -> Outcome {
        if let fault = error as? HarnessFault { return .harnessFault(fault) }
        return .fail(Failure(rule: "setup", kind: .thrown, message: "making the system threw \(error)"))
    }

    /// The invariants over several states the system may be in (after a concurrent step): the states in which
    /// every invariant holds are kept; none: the first state's broken invariant. Counted for the first state.
    @usableFromInline
    static func checkInvariants(_ invariants: [Invariant<M>], _ model: inout M.Model, _ others: inout [M.Model], _ system: M.System,
                                tally: inout Tally) -> Failure? {
        var uncounted = Tally(actions: 0, counts: false)
        let first = checkInvariants(invariants, model, system, tally: &tally)
        let holding = others.filter { checkInvariants(invariants, $0, system, tally: &uncounted) == nil }
        if first == nil { others = holding; return nil }
        guard let next = holding.first else { return first }
        model = next
        others = Array(holding.dropFirst())
        return nil
    }

    /// Runs the invariants after a step, counting each check's rule when the tally counts; the first broken
    /// one's failure. An invariant that decides nothing in this state is skipped.
    @inlinable
    static func checkInvariants(_ invariants: [Invariant<M>], _ model: M.Model, _ system: M.System, tally: inout Tally) -> Failure? {
        for i in invariants.indices {
            if let applies = invariants[i].applies, !applies(model) { continue }
            if tally.counts { tally.checks.count(invariants[i].rule) }
            if let broken = invariants[i].check(model, system) { return broken }
        }
        return nil
    }

    // MARK: Entry points

    /// Runs one case whose every decision comes from `draw`.
    @inlinable
    package func run(_ draw: Draw, _ options: RunOptions = .search) -> MachineRun<M> {
        var scratch = Scratch(Arguments(.drawing(draw)), actions: actions, invariants: invariants, options: options)
        let end = runCase(.draw(draw), options, &scratch)
        return MachineRun(outcome: end.outcome, steps: end.steps, config: end.config!, configTrace: end.configTrace ?? TraceStep("config"),
                          records: scratch.records, coverage: scratch.io.tally.coverage(shared.names, held: scratch.chooser.held,
                                                                                         failed: scratch.chooser.failed))
    }

    /// Replays recorded steps, each read by the action of its name (`options` as for `run`; recording by
    /// default). A configuration or step that cannot be read or applied is an error naming it.
    @inlinable
    package func replay(config: TraceStep, steps: [TraceStep], _ options: RunOptions = RunOptions(records: true, exports: true, covers: true))
    -> Result<MachineRun<M>, TraceReplayError> {
        var scratch = Scratch(Arguments(.reading(config)), actions: actions, invariants: invariants, options: options)
        let end = runCase(.trace(config: config, steps: steps), options, &scratch)
        if let refused = end.refused { return .failure(refused) }
        return .success(MachineRun(outcome: end.outcome, steps: end.steps, config: end.config!, configTrace: end.configTrace ?? config,
                                   records: scratch.records, coverage: scratch.io.tally.coverage(shared.names, held: [], failed: [])))
    }

    /// Runs a search's chunk of cases — case `i` drawn from `SplitMix64.caseSeed(run: seed, case: i)`, exactly
    /// what `run` draws for it — and adds up what they did; with `stopAtFirstFailure`, stops after the first
    /// failing case. Nobody reads a passing case's choices (a failing case is run again from its seed,
    /// recorded, to shrink it), so the cases share one draw that keeps no record (one source), and one scratch.
    /// `willRunCase` is told each case's index, with what the chunk did so far, before it runs.
    @inlinable
    package func runChunk(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool, covers: Bool = true,
                          willRunCase: (Int, ChunkReport) -> Void = { _, _ in }) -> ChunkReport {
        let draw = Draw(unrecordedSeed: 0)
        let options = RunOptions(covers: covers)
        let source = CaseSource.draw(draw)
        var scratch = Scratch(Arguments(.drawing(draw), tracesCoded: false), actions: actions, invariants: invariants, options: options)
        var report = ChunkReport.collect(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure, willRun: willRunCase) { index in
            draw.restart(seed: SplitMix64.caseSeed(run: seed, case: index))
            let end = runCase(source, options, &scratch)
            return (end.outcome, end.steps, nil)
        }
        report.coverage = scratch.io.tally.coverage(shared.names, held: scratch.chooser.held, failed: scratch.chooser.failed)
        return report
    }

    /// Whether throughput benchmarks measure `config` (every configuration unless the machine is `Benchmarkable`).
    @inlinable
    package func isBenchmarked(_ config: M.Config) -> Bool { shared.isBenchmarked?(config) ?? true }

    // MARK: Records

    /// The run as readable records: the configuration, the steps and their expectations, the outcome, and the
    /// case as Swift lines (when the run exported).
    @inlinable
    package func describe(_ run: MachineRun<M>, exports: Bool = true) -> CaseRecord {
        CaseRecord(config: run.configTrace, steps: run.traces, expectations: run.expectations, outcome: run.outcome,
                   swiftLines: exports ? swiftLines(run) : [], configLines: configLines(run.config))
    }

    /// The machine's declaration of `config` when it is `ConfigDescribing`, else nothing.
    @usableFromInline
    func configLines(_ config: M.Config) -> [String] {
        func lines<D: ConfigDescribing>(_ machine: D) -> [String] { machine.describe(config as! D.Config) }
        guard let describing = machine as? any ConfigDescribing else { return [] }
        return lines(describing)
    }

    /// The reproduction as Swift lines: the machine's setup and each step's lines when it is
    /// `SwiftExportable`, else the steps as comments.
    @usableFromInline
    func swiftLines(_ run: MachineRun<M>) -> [String] {
        guard let exporter = machine as? any SwiftExportable else {
            return ["// \(run.configTrace)"] + run.records.map { "// \($0.trace)  → expect \($0.value)" }
        }
        func setup<E: SwiftExportable>(_ machine: E) -> [String] { machine.swiftSetup(run.config as! E.Config) }
        var lines = setup(exporter)
        for (index, record) in run.records.enumerated() { lines += record.swift?(index == run.records.count - 1) ?? [] }
        return lines
    }
}

/// The `isBenchmarked` of a `Benchmarkable` machine, nil for any other.
@usableFromInline
func benchmarkFilter<M: StateMachine>(_ machine: M) -> ((M.Config) -> Bool)? {
    func filter<B: Benchmarkable>(_ machine: B) -> (M.Config) -> Bool { { machine.isBenchmarked($0 as! B.Config) } }
    guard let benchmarkable = machine as? any Benchmarkable else { return nil }
    return filter(benchmarkable)
}

/// A trace that cannot be replayed; `step` is the 0-based step index (nil for the configuration).
@usableFromInline package struct TraceReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    @usableFromInline package var step: Int?
    @usableFromInline package var message: String
    @usableFromInline package init(step: Int?, message: String) {
        self.step = step
        self.message = message
    }
    @usableFromInline package var description: String { message }
}
