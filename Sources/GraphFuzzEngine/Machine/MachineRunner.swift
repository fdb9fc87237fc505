/// One step of a case: which action, its command and its trace.
public struct PlannedStep<M: StateMachine> {
    /// Index into the machine's actions.
    public var action: Int
    public var command: M.Command
    /// The step's trace. Complete when the run records steps (`keepSteps`), replays a trace or
    /// generates; a search's run (`keepSteps: false`) leaves out the arguments (the runner renders
    /// them only for a failure's message), so every step of a search costs no trace.
    public var trace: TraceStep

    @inlinable
    public init(action: Int, command: M.Command, trace: TraceStep) {
        self.action = action
        self.command = command
        self.trace = trace
    }
}

/// One executed step with its prediction, kept for reports.
public struct ExecutedStep<M: StateMachine> {
    public var step: PlannedStep<M>
    public var predicted: Prediction<M.Observation>

    @inlinable
    public init(step: PlannedStep<M>, predicted: Prediction<M.Observation>) {
        self.step = step
        self.predicted = predicted
    }
}

/// The result of running one case of a state machine.
public struct MachineRun<M: StateMachine> {
    public var outcome: Outcome
    public var config: M.Config
    /// Steps run, up to and including a failing one.
    public var commands: [PlannedStep<M>]
    /// The same steps with their predictions, kept only when asked for.
    public var steps: [ExecutedStep<M>]
    /// What the case exercised.
    public var coverage: Coverage

    @inlinable
    public init(outcome: Outcome, config: M.Config, commands: [PlannedStep<M>], steps: [ExecutedStep<M>], coverage: Coverage) {
        self.outcome = outcome
        self.config = config
        self.commands = commands
        self.steps = steps
        self.coverage = coverage
    }
}

/// Runs cases of a state machine, from choices (search, shrinking, fuzzing) or from a trace (corpus replay).
///
/// A generated case draws, in order: the configuration (span `.config`); which actions the case
/// may use (span `.swarm`, swarm testing: zero means all); then each step in a `.step` span — a
/// continue flag, the action among the enabled ones whose precondition holds (span `.command`),
/// and the action's arguments.
public struct MachineRunner<M: StateMachine> {
    /// The machine, its actions, invariants and plan, shared by every runner made from it (`with(maxSteps:)`):
    /// one reference, so copying a runner — which the step loop's closures do — costs one retain.
    @usableFromInline let shared: Shared
    /// The most steps a generated case takes.
    public let maxSteps: Int

    public var machine: M { shared.machine }
    @inlinable var actions: [Action<M>] { shared.actions }
    @inlinable var invariants: [Invariant<M>] { shared.invariants }
    /// What every case starts from, built once per runner: the actions' names and weights.
    @inlinable var plan: Plan { shared.plan }

    @inlinable
    public init(_ machine: M, maxSteps: Int) {
        self.init(Shared(machine, actions: machine.actions, invariants: machine.invariants), maxSteps: maxSteps)
    }

    @inlinable
    init(_ shared: Shared, maxSteps: Int) {
        self.shared = shared
        self.maxSteps = Swift.max(1, maxSteps)
    }

    /// The same machine with another step limit (shares the actions: `machine.actions` builds its
    /// closures anew on every read, so they are read once per machine).
    @inlinable
    func with(maxSteps: Int) -> MachineRunner {
        MachineRunner(shared, maxSteps: maxSteps)
    }

    @usableFromInline
    final class Shared {
        @usableFromInline let machine: M
        @usableFromInline let actions: [Action<M>]
        @usableFromInline let invariants: [Invariant<M>]
        @usableFromInline let plan: Plan

        @inlinable
        init(_ machine: M, actions: [Action<M>], invariants: [Invariant<M>]) {
            self.machine = machine
            self.actions = actions
            self.invariants = invariants
            plan = Plan(actions)
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
        /// Whether an action that is not coded exists: only those read the reference counter, so a
        /// machine of coded actions alone never needs a coded command's trace to count references.
        @usableFromInline let readsRefs: Bool
        /// Per action, whether a search derives its command's trace as it draws it: a coded action's,
        /// when `readsRefs` (the reference it creates is in that trace).
        @usableFromInline let tracesCodedInSearch: [Bool]

        @inlinable
        init(_ actions: [Action<M>]) {
            fixedWeights = actions.map { $0.fixedWeight ?? 0 }
            modelWeighted = actions.indices.filter { actions[$0].fixedWeight == nil }
            allEnabled = Array(repeating: true, count: actions.count)
            let readsRefs = actions.contains { $0.codedTrace == nil }
            self.readsRefs = readsRefs
            tracesCodedInSearch = actions.map { $0.codedTrace != nil && readsRefs }
        }
    }

    /// Probability of drawing another step: the expected length is about `maxSteps` before the cap.
    @usableFromInline
    var continueProbability: Double { 1 - 1 / Double(maxSteps + 1) }

    /// Runs a case whose every decision comes from `draw`.
    @inlinable
    public func run(_ draw: Draw, keepSteps: Bool = false) -> MachineRun<M> {
        run(draw, keepSteps: keepSteps, systemSteps: .max, willRunStep: nil)
    }

    /// Runs a case like `run(_:keepSteps:)`; without `covers` its coverage is left empty (a search
    /// that does not report coverage does not pay for counting it).
    @inlinable
    public func run(_ draw: Draw, covers: Bool) -> MachineRun<M> {
        run(draw, keepSteps: false, systemSteps: .max, willRunStep: nil, covers: covers)
    }

    /// Runs a case whose every decision comes from `draw`, for worker processes.
    ///
    /// - Parameters:
    ///   - systemSteps: steps from this index on are not run on the system: the step at this index
    ///     is generated and predicted (and kept), then the run ends with `.pass`. Used to describe a
    ///     case that crashed or hung at that step in a worker process without running it again.
    ///   - willRunStep: called with a step's 0-based index just before the system runs it, so a
    ///     worker process can tell its parent which step was running when it died.
    @inlinable
    public func run(_ draw: Draw, keepSteps: Bool = false, systemSteps: Int, willRunStep: ((Int) -> Void)? = nil) -> MachineRun<M> {
        run(draw, keepSteps: keepSteps, systemSteps: systemSteps, willRunStep: willRunStep, covers: true)
    }

    @inlinable
    func run(_ draw: Draw, keepSteps: Bool, systemSteps: Int, willRunStep: ((Int) -> Void)?, covers: Bool) -> MachineRun<M> {
        let config = draw.span(.config) { machine.makeConfig(draw) }
        var chooser = Chooser(actions: actions, counts: covers)
        chooser.start(enabled: draw.span(.swarm) { swarm(draw) }, plan: plan)
        var tally = Tally(actions: actions.count, counts: covers)
        var commands: [PlannedStep<M>] = []
        // A case's length is about `maxSteps` (at most 64 reserved, so a long limit allocates as it grows).
        commands.reserveCapacity(Swift.min(maxSteps, 64))
        var steps: [ExecutedStep<M>] = []
        let (outcome, _) = execute(config: config, keepSteps: keepSteps, commands: &commands, steps: &steps,
                                   tally: &tally, systemSteps: systemSteps, willRunStep: willRunStep,
                                   trace: { step in keepSteps ? step.trace : chooser.trace(of: step) },
                                   next: { model, index, refs in nextStep(model, index, refs, draw, records: keepSteps, &chooser) })
        return MachineRun(outcome: outcome, config: config, commands: commands, steps: steps,
                          coverage: tally.coverage(actions, held: chooser.held, failed: chooser.failed))
    }

    /// Swarm testing (Groce et al., ISSTA 2012): half the cases use every action; the others leave
    /// each action out with probability 1/2, so some cases never dilute a rare action's effect.
    @inlinable
    func swarm(_ draw: Draw) -> [Bool] {
        guard actions.count > 1, draw.chooseBool(probability: 0.25) else { return plan.allEnabled }
        return actions.map { _ in !draw.chooseBool() }
    }

    /// Draws step `index` in its own span: the continue flag, the action, its arguments. With
    /// `records`, the step carries its whole trace; without, its arguments stay in the chooser's
    /// buffer until the next step (`Chooser.trace(of:)` renders them for a failure).
    @inlinable
    func nextStep(_ model: M.Model, _ index: Int, _ refs: Int, _ draw: Draw, records: Bool, _ chooser: inout Chooser) -> Next {
        guard index < maxSteps else { return .stop }
        draw.beginSpan(.step)
        defer { draw.endSpan() }
        guard draw.chooseBool(probability: continueProbability) else { return .stop }
        chooser.begin(model)
        var excluded: [Int] = []
        while true {
            guard let a = draw.span(.command, { chooser.choose(model, excluded: excluded, draw) }) else { return .stop }
            let coded = actions[a].codedTrace
            var arguments = Arguments(.drawing(draw), nextRef: Ref(refs), buffer: chooser.takeBuffer(),
                                      tracesCoded: records || (coded != nil && plan.readsRefs))
            let command = actions[a].arguments(&arguments, model)
            chooser.buffer = arguments.recorded
            if let command {
                if draw.isRejected { return .reject }
                let trace: TraceStep
                if records || (coded != nil && plan.readsRefs) {
                    trace = arguments.trace(arguments.codedName ?? actions[a].name)
                } else {
                    trace = TraceStep(actions[a].name, result: arguments.created)
                }
                return .step(PlannedStep(action: a, command: command, trace: trace))
            }
            excluded.append(a)
        }
    }

    /// Chooses actions like Hypothesis' `sampled_from(rules).filter(valid)`: an action index is
    /// drawn by weight over all enabled actions (so a recorded choice keeps naming the same action
    /// when shrinking removes earlier steps); if its precondition fails, up to two more draws; then
    /// a draw among the enabled actions whose precondition holds, and if none, among all whose
    /// precondition holds. Checks are counted.
    ///
    /// Each step (`begin`) evaluates the model-dependent weights once, and each precondition at most
    /// once (remembered in a mask reused across steps), however often the draws and the fallback
    /// ask for them; every ask is still counted, so coverage counts what it counted before.
    @usableFromInline
    struct Chooser {
        @usableFromInline let actions: [Action<M>]
        /// The actions this case may use (`start`).
        @usableFromInline var enabled: [Bool] = []
        /// Per action: precondition checks that held, and that failed (added up over the cases it chooses for).
        @usableFromInline var held: [Int]
        @usableFromInline var failed: [Int]
        @usableFromInline var candidates: [Int] = []
        @usableFromInline var weights: [UInt32] = []
        /// This step's weights of the enabled actions (0 for disabled ones): the fixed ones set once
        /// per case, the model-dependent ones (`modelWeighted`, enabled only) set by `begin`.
        @usableFromInline var stepWeights: [UInt32] = []
        @usableFromInline var modelWeighted: [Int]
        /// The precondition results per action, stamped with the step they were evaluated in:
        /// `stamp << 1` when it fails, `stamp << 1 | 1` when it holds (any other value: not evaluated
        /// in this step), so a new step (`begin`) forgets them all without a write per action.
        @usableFromInline var known: [UInt64]
        /// The current step's stamp (1, 2, …; 0 is never a step's).
        @usableFromInline var stamp: UInt64 = 0
        /// Whether precondition checks are counted (for coverage).
        @usableFromInline let counts: Bool
        /// The arguments the last drawn step recorded; lent to each step's `Arguments` in turn.
        @usableFromInline var buffer: [TraceStep.Argument] = []

        /// A chooser for one case or, reused, for every case of a chunk (its buffers keep their storage).
        @inlinable
        init(actions: [Action<M>], counts: Bool) {
            self.actions = actions
            self.counts = counts
            held = counts ? Array(repeating: 0, count: actions.count) : []
            failed = held
            known = Array(repeating: 0, count: actions.count)
            modelWeighted = []
            stepWeights.reserveCapacity(actions.count)
            weights.reserveCapacity(actions.count)
        }

        /// Starts a case that may use the `enabled` actions.
        @inlinable
        mutating func start(enabled: [Bool], plan: Plan) {
            self.enabled = enabled
            // Element-wise, so `stepWeights` keeps its own storage (a shared one would be copied on the
            // first write of every case).
            stepWeights.removeAll(keepingCapacity: true)
            if enabled == plan.allEnabled {
                stepWeights.append(contentsOf: plan.fixedWeights)
                modelWeighted = plan.modelWeighted
            } else {
                for a in actions.indices { stepWeights.append(enabled[a] ? actions[a].fixedWeight ?? 0 : 0) }
                modelWeighted = plan.modelWeighted.filter { enabled[$0] }
            }
        }

        /// Starts a step in `model`: its model-dependent weights, no precondition evaluated yet.
        @inlinable
        mutating func begin(_ model: M.Model) {
            for a in modelWeighted { stepWeights[a] = actions[a].weight(model) }
            stamp += 1
        }

        /// The argument buffer, left empty here so the borrower holds the only reference (no copy).
        @inlinable
        mutating func takeBuffer() -> [TraceStep.Argument] {
            defer { buffer = [] }
            return buffer
        }

        /// The whole trace of `step`, the last step drawn: its recorded arguments, or a coded
        /// command's own trace.
        @inlinable
        func trace(of step: PlannedStep<M>) -> TraceStep {
            if let coded = actions[step.action].codedTrace { return coded(step.command) }
            return TraceStep(step.trace.name, result: step.trace.result, buffer)
        }

        /// Whether action `a`'s precondition holds in this step's model, evaluated once per step.
        @inlinable
        mutating func applicable(_ a: Int, _ model: M.Model) -> Bool {
            if known[a] >> 1 != stamp { known[a] = stamp << 1 | (actions[a].precondition(model) ? 1 : 0) }
            let holds = known[a] & 1 == 1
            if counts {
                if holds { held[a] += 1 } else { failed[a] += 1 }
            }
            return holds
        }

        @inlinable
        mutating func choose(_ model: M.Model, excluded: [Int], _ draw: Draw) -> Int? {
            // The draws use this step's weights as they are until one must be zeroed (an excluded
            // action, a failed precondition); only then are they copied into `weights`, element-wise
            // so `weights` keeps its own storage.
            var copied = !excluded.isEmpty
            if copied {
                weights.removeAll(keepingCapacity: true)
                weights.append(contentsOf: stepWeights)
                for a in excluded { weights[a] = 0 }
            }
            if (copied ? weights : stepWeights).contains(where: { $0 > 0 }) {
                for _ in 0..<3 {
                    let a = draw.chooseWeighted(copied ? weights : stepWeights)
                    if (copied ? weights[a] : stepWeights[a]) > 0, applicable(a, model) { return a }
                    if !copied {
                        weights.removeAll(keepingCapacity: true)
                        weights.append(contentsOf: stepWeights)
                        copied = true
                    }
                    weights[a] = 0
                    if !weights.contains(where: { $0 > 0 }) { break }
                }
            }
            collect(model, excluded: excluded, swarm: true)
            if candidates.isEmpty { collect(model, excluded: excluded, swarm: false) }
            guard !candidates.isEmpty else { return nil }
            return candidates[draw.chooseWeighted(weights)]
        }

        /// The applicable actions (enabled ones when `swarm`) in `candidates`, their weights in `weights`.
        @inlinable
        mutating func collect(_ model: M.Model, excluded: [Int], swarm: Bool) {
            candidates.removeAll(keepingCapacity: true)
            weights.removeAll(keepingCapacity: true)
            for a in actions.indices where (enabled[a] || !swarm) && !excluded.contains(a) {
                let weight = enabled[a] ? stepWeights[a] : actions[a].weight(model)
                guard weight > 0, applicable(a, model) else { continue }
                candidates.append(a)
                weights.append(weight)
            }
        }
    }

    /// Generates a case against the model alone — the system is never made or run — and returns
    /// the configuration and the steps a passing run would take. Fingerprints of the
    /// generators use it, so a system that crashes or hangs cannot take them down.
    public func generate(_ draw: Draw) -> (config: M.Config, commands: [PlannedStep<M>]) {
        let config = draw.span(.config) { machine.makeConfig(draw) }
        var chooser = Chooser(actions: actions, counts: false)
        chooser.start(enabled: draw.span(.swarm) { swarm(draw) }, plan: plan)
        var model = machine.makeModel(config)
        var commands: [PlannedStep<M>] = []
        var refs = 0
        while case .step(let step) = nextStep(model, commands.count, refs, draw, records: true, &chooser) {
            commands.append(step)
            if step.trace.result != nil { refs += 1 }
            _ = actions[step.action].predict(step.command, &model)
        }
        return (config, commands)
    }

    /// Replays recorded steps: each is read by the action of its name. A step that cannot be read
    /// or whose command precondition fails is reported by index.
    @inlinable
    public func replay(config: M.Config, traces: [TraceStep], keepSteps: Bool = true,
                       systemSteps: Int = .max) -> Result<MachineRun<M>, ReplayError> {
        var refused: ReplayError?
        var commands: [PlannedStep<M>] = [], steps: [ExecutedStep<M>] = []
        var tally = Tally(actions: actions.count, counts: true)
        let (outcome, _) = execute(config: config, keepSteps: keepSteps, commands: &commands, steps: &steps, tally: &tally,
                                   systemSteps: systemSteps, willRunStep: nil, trace: \.trace) { model, index, refs in
            guard index < traces.count else { return .stop }
            let trace = traces[index]
            guard let a = actions.firstIndex(where: { $0.name == trace.name }) else {
                let names = actions.map(\.name).joined(separator: ", ")
                refused = ReplayError(step: index, message: "step \(index + 1) '\(trace)': unknown step '\(trace.name)' (expected one of \(names))")
                return .reject
            }
            var arguments = Arguments(.reading(trace), nextRef: Ref(refs))
            let command = actions[a].arguments(&arguments, model)
            if let error = arguments.error {
                refused = ReplayError(step: index, message: "step \(index + 1) '\(trace)': \(error.message)")
                return .reject
            }
            guard let command, machine.precondition(command, model) else {
                refused = ReplayError(step: index, message: "step \(index + 1) '\(trace)' cannot be applied in the state the earlier steps leave (a reference or precondition no longer holds)")
                return .reject
            }
            return .step(PlannedStep(action: a, command: command, trace: trace))
        }
        if let refused { return .failure(refused) }
        return .success(MachineRun(outcome: outcome, config: config, commands: commands, steps: steps,
                                   coverage: tally.coverage(actions, held: [], failed: [])))
    }

    @usableFromInline
    enum Next { case step(PlannedStep<M>), stop, reject }

    /// Runs the steps `next` plans, appending them to `commands` and, with their predictions, to
    /// `steps` (with `keepSteps`); returns the outcome and the steps run. `trace` gives a step's whole
    /// trace, asked only for a failure's message (`run(_:covers:)`'s steps carry none).
    /// What the case exercised is added to `tally` when it counts.
    @inlinable
    func execute(config: M.Config, keepSteps: Bool, commands: inout [PlannedStep<M>], steps: inout [ExecutedStep<M>],
                 tally: inout Tally, systemSteps: Int, willRunStep: ((Int) -> Void)?,
                 trace: (PlannedStep<M>) -> TraceStep, next: (M.Model, Int, Int) -> Next) -> (outcome: Outcome, steps: Int) {
        let covers = tally.counts
        if covers { tally.cases += 1 }
        return withCase(config) { model, system in
            var index = 0
            var refs = 0
            while true {
                let step: PlannedStep<M>
                switch next(model, index, refs) {
                case .stop: return (.pass, index)
                case .reject: return (.rejected, index)
                case .step(let s): step = s
                }
                commands.append(step)
                if step.trace.result != nil { refs += 1 }
                let predicted = actions[step.action].predict(step.command, &model)
                if covers { tally.count(predicted, of: step.action) }
                if keepSteps { steps.append(ExecutedStep(step: step, predicted: predicted)) }
                if index >= systemSteps { return (.pass, index + 1) }
                willRunStep?(index)
                let observed: Result<M.Observation, any Error>
                do {
                    observed = .success(try actions[step.action].perform(step.command, &system))
                } catch {
                    observed = .failure(error)
                }
                if let outcome = judge(predicted, observed, model, system, step: index, tally: &tally, trace: { trace(step) }) {
                    return (outcome, index + 1)
                }
                index += 1
            }
        }
    }

    /// Runs `body` with a new model and system for `config`, and tears the system down after; a
    /// system that cannot be made ends the case (`setupOutcome`) before any step.
    @inlinable
    func withCase(_ config: M.Config, _ body: (inout M.Model, inout M.System) -> (outcome: Outcome, steps: Int)) -> (outcome: Outcome, steps: Int) {
        var model = machine.makeModel(config)
        var system: M.System
        do {
            system = try machine.makeSystem(config)
        } catch {
            return (Self.setupOutcome(error), 0)
        }
        defer { machine.tearDown(&system) }
        return body(&model, &system)
    }

    /// The outcome of a case whose system could not be made: a harness fault, or a failure of "setup".
    @inlinable
    static func setupOutcome(_ error: any Error) -> Outcome {
        if let fault = error as? HarnessFault { return .harnessFault(fault) }
        return .fail(Failure(rule: "setup", kind: .thrown, message: "making the system threw \(error)"))
    }

    /// Judges step `index`, which the system ran: the observation against the prediction (`compare`
    /// explains a mismatch; an observation the prediction allows passes), then the invariants. A
    /// thrown `HarnessFault` is the harness's; any other error fails the predicted rule. Nil when the
    /// step passes; `trace` is asked only for a failure's message.
    @inlinable
    func judge(_ predicted: Prediction<M.Observation>, _ observed: Result<M.Observation, any Error>, _ model: M.Model, _ system: M.System,
               step index: Int, tally: inout Tally, trace: () -> TraceStep) -> Outcome? {
        var failure: Failure?
        switch observed {
        case .success(let observation):
            if !predicted.allows(observation) {
                failure = machine.compare(predicted, observation, trace())
            }
            if failure == nil { failure = checkInvariants(model, system, tally: &tally) }
        case .failure(let fault as HarnessFault):
            return .harnessFault(HarnessFault(message: fault.message, place: fault.place, step: index, stepTrace: "\(trace())"))
        case .failure(let error):
            failure = Failure(rule: predicted.rule, kind: .thrown, message: "\(trace()) threw \(error)")
        }
        guard var failure else { return nil }
        failure.step = index
        return .fail(failure)
    }

    /// Runs the invariants after a step, counting each check's rule when the tally counts; the first
    /// broken one's failure.
    @inlinable
    func checkInvariants(_ model: M.Model, _ system: M.System, tally: inout Tally) -> Failure? {
        for i in invariants.indices {
            if tally.counts {
                if let decide = invariants[i].decidedBy {
                    if let rule = decide(model) { tally.checks.count(rule) }
                } else {
                    tally.checks.count(invariants[i].rule)
                }
            }
            if let broken = invariants[i].check(model, system) { return broken }
        }
        return nil
    }

    /// What cases exercised (coverage), counted per action index and per rule: for one case, or kept
    /// across the cases of a chunk and turned into a `Coverage` once.
    @usableFromInline
    struct Tally {
        /// Whether anything is counted (a search that reports no coverage does not pay for it).
        @usableFromInline let counts: Bool
        @usableFromInline var cases = 0
        /// Per action, the steps that ran it.
        @usableFromInline var ran: [Int]
        /// Per action, the index in `rules` of the rule its last prediction named (an action mostly names one).
        @usableFromInline var ruleOfAction: [Int]
        @usableFromInline var rules = RuleCounts()
        @usableFromInline var checks = RuleCounts()

        @inlinable
        init(actions: Int, counts: Bool) {
            self.counts = counts
            ran = counts ? Array(repeating: 0, count: actions) : []
            ruleOfAction = ran
        }

        /// Counts a step of action `action` and the rules its prediction names.
        @inlinable
        mutating func count(_ predicted: Prediction<M.Observation>, of action: Int) {
            ran[action] += 1
            rules.count(predicted.rule, hint: &ruleOfAction[action])
            if !predicted.alsoDecided.isEmpty {
                for rule in predicted.alsoDecided { rules.count(rule) }
            }
        }

        /// The counts as a `Coverage`, with the precondition checks a chooser counted (`held`, `failed`;
        /// empty when none were).
        @inlinable
        func coverage(_ actions: [Action<M>], held: [Int], failed: [Int]) -> Coverage {
            var coverage = Coverage()
            guard counts else { return coverage }
            coverage.cases = cases
            coverage.actions = actions.indices.map {
                Coverage.ActionCount(name: actions[$0].name, ran: ran[$0], held: held.isEmpty ? 0 : held[$0], failed: failed.isEmpty ? 0 : failed[$0])
            }
            for (rule, count) in zip(rules.rules, rules.counts) { coverage.predictions[rule, default: 0] += count }
            for (rule, count) in zip(checks.rules, checks.counts) { coverage.invariants[rule, default: 0] += count }
            return coverage
        }
    }
}

/// Predictions per rule id within one case or chunk: a short list searched from the last hit (a machine
/// names few rules), so counting costs no hashing per step.
@usableFromInline
struct RuleCounts {
    @usableFromInline var rules: [String] = []
    @usableFromInline var counts: [Int] = []
    @usableFromInline var last = 0

    @inlinable init() {}

    @inlinable
    mutating func count(_ rule: String) {
        var hint = last
        count(rule, hint: &hint)
        last = hint
    }

    /// Counts `rule`, looking first at index `hint` (the caller's last hit, updated).
    @inlinable
    mutating func count(_ rule: String, hint: inout Int) {
        if hint < rules.count, rules[hint] == rule {
            counts[hint] += 1
            return
        }
        if let i = rules.firstIndex(of: rule) {
            counts[i] += 1
            hint = i
        } else {
            rules.append(rule)
            counts.append(1)
            hint = rules.count - 1
        }
    }
}

/// A fixed command list that cannot be applied.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0-based index of the step that could not be applied.
    public var step: Int
    public var message: String

    @inlinable
    public init(step: Int, message: String) {
        self.step = step
        self.message = message
    }
    public var description: String { message }
}
