/// One executed step, kept for reports.
public struct ExecutedStep<M: StateMachine> {
    public var command: M.Command
    public var expected: Expectation<M.Observation>

    @inlinable
    public init(command: M.Command, expected: Expectation<M.Observation>) {
        self.command = command
        self.expected = expected
    }
}

/// The result of running one case of a state machine.
public struct MachineRun<M: StateMachine> {
    public var outcome: Outcome
    public var config: M.Config
    /// Steps run, up to and including a failing one. Expectations are kept only when asked for.
    public var commands: [M.Command]
    public var steps: [ExecutedStep<M>]

    @inlinable
    public init(outcome: Outcome, config: M.Config, commands: [M.Command], steps: [ExecutedStep<M>]) {
        self.outcome = outcome
        self.config = config
        self.commands = commands
        self.steps = steps
    }
}

/// Runs cases of a state machine, from choices (search, shrinking, fuzzing) or from a trace (corpus replay).
public struct MachineRunner<M: StateMachine> {
    public let machine: M
    /// The most steps a generated case takes.
    public let maxSteps: Int

    @inlinable
    public init(_ machine: M, maxSteps: Int) {
        self.machine = machine
        self.maxSteps = Swift.max(1, maxSteps)
    }

    /// Probability of drawing another step: the expected length is about `maxSteps` before the cap.
    @usableFromInline
    var continueProbability: Double { 1 - 1 / Double(maxSteps + 1) }

    /// Runs a case whose every decision comes from `draw`.
    @inlinable
    public func run(_ draw: Draw, keepSteps: Bool = false) -> MachineRun<M> {
        run(draw, keepSteps: keepSteps, systemSteps: .max, willRunStep: nil)
    }

    /// Runs a case whose every decision comes from `draw`, for worker processes.
    ///
    /// - Parameters:
    ///   - systemSteps: steps from this index on are not run on the system: the step at this index
    ///     is generated and expected (and kept), then the run ends with `.pass`. Used to describe a
    ///     case that crashed or hung at that step in a worker process without running it again.
    ///   - willRunStep: called with a step's 0-based index just before the system runs it, so a
    ///     worker process can tell its parent which step was running when it died.
    @inlinable
    public func run(_ draw: Draw, keepSteps: Bool = false, systemSteps: Int, willRunStep: ((Int) -> Void)? = nil) -> MachineRun<M> {
        let config = draw.span(.config) { machine.makeConfig(draw) }
        var commands: [M.Command] = []
        return execute(config: config, keepSteps: keepSteps, systemSteps: systemSteps, willRunStep: willRunStep,
                       commands: &commands) { model, index in nextStep(model, index, draw) }
    }

    /// Draws step `index` in its own span: the continue flag, then the command for this model state.
    @inlinable
    func nextStep(_ model: M.Model, _ index: Int, _ draw: Draw) -> Next {
        guard index < maxSteps else { return .stop }
        draw.beginSpan(.step)
        defer { draw.endSpan() }
        guard draw.chooseBool(probability: continueProbability) else { return .stop }
        guard let command = draw.span(.command, { machine.nextCommand(model, draw) }) else { return .stop }
        if draw.isRejected || !machine.precondition(command, model) { return .reject }
        return .command(command)
    }

    /// Generates a case against the model alone — the system is never made or run — and returns
    /// the configuration and the commands a passing run would take. Fingerprints of the
    /// generators use it, so a system that crashes or hangs cannot take them down.
    public func generate(_ draw: Draw) -> (config: M.Config, commands: [M.Command]) {
        let config = draw.span(.config) { machine.makeConfig(draw) }
        var model = machine.makeModel(config)
        var commands: [M.Command] = []
        while case .command(let command) = nextStep(model, commands.count, draw) {
            commands.append(command)
            _ = machine.expect(command, &model)
        }
        return (config, commands)
    }

    /// Replays a fixed list of commands. A command whose precondition fails is reported by index.
    @inlinable
    public func replay(config: M.Config, commands fixed: [M.Command], keepSteps: Bool = true) -> Result<MachineRun<M>, ReplayError> {
        replay(config: config, commands: fixed, keepSteps: keepSteps, systemSteps: .max)
    }

    /// Replays a fixed list of commands; `systemSteps` is as in `run(_:keepSteps:systemSteps:willRunStep:)`.
    @inlinable
    public func replay(config: M.Config, commands fixed: [M.Command], keepSteps: Bool = true,
                       systemSteps: Int) -> Result<MachineRun<M>, ReplayError> {
        var commands: [M.Command] = []
        var refused: Int?
        let run = execute(config: config, keepSteps: keepSteps, systemSteps: systemSteps, willRunStep: nil,
                          commands: &commands) { model, index in
            guard index < fixed.count else { return .stop }
            guard machine.precondition(fixed[index], model) else {
                refused = index
                return .reject
            }
            return .command(fixed[index])
        }
        if let refused {
            return .failure(ReplayError(step: refused, message: "step \(refused + 1) '\(fixed[refused].trace)' cannot be applied in the state the earlier steps leave (a reference or precondition no longer holds)"))
        }
        return .success(run)
    }

    @usableFromInline
    enum Next { case command(M.Command), stop, reject }

    @inlinable
    func execute(config: M.Config, keepSteps: Bool, systemSteps: Int, willRunStep: ((Int) -> Void)?,
                 commands: inout [M.Command], next: (M.Model, Int) -> Next) -> MachineRun<M> {
        var steps: [ExecutedStep<M>] = []
        var model = machine.makeModel(config)
        var system: M.System
        do {
            system = try machine.makeSystem(config)
        } catch {
            let failure = Failure(rule: "setup", kind: .thrown, message: "making the system threw \(error)")
            return MachineRun(outcome: .fail(failure), config: config, commands: [], steps: [])
        }
        defer { machine.tearDown(&system) }
        var index = 0
        while true {
            let command: M.Command
            switch next(model, index) {
            case .stop: return MachineRun(outcome: .pass, config: config, commands: commands, steps: steps)
            case .reject: return MachineRun(outcome: .rejected, config: config, commands: commands, steps: steps)
            case .command(let c): command = c
            }
            commands.append(command)
            let expected = machine.expect(command, &model)
            if keepSteps { steps.append(ExecutedStep(command: command, expected: expected)) }
            if index >= systemSteps { return MachineRun(outcome: .pass, config: config, commands: commands, steps: steps) }
            willRunStep?(index)
            var failure: Failure?
            do {
                let observed = try machine.run(command, &system)
                failure = machine.compare(expected, observed, command) ?? machine.checkInvariants(model, system)
            } catch {
                failure = Failure(rule: expected.rule, kind: .thrown, message: "\(command.trace) threw \(error)")
            }
            if var failure {
                failure.step = index
                return MachineRun(outcome: .fail(failure), config: config, commands: commands, steps: steps)
            }
            index += 1
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
