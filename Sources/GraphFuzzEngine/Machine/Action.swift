/// One kind of step of a machine: its name (the trace name), weight, precondition on the model,
/// how it draws its arguments from the model, what the specification predicts and what the
/// system does. Hypothesis' `@rule` with `@precondition`.
public struct Action<M: StateMachine> {
    public let name: String
    /// Relative frequency among the applicable actions; a function of the model for machines
    /// whose mix changes with the state (0 makes the action inapplicable).
    @usableFromInline let weight: (M.Model) -> UInt32
    /// The weight when it does not depend on the model (chosen without calling `weight`).
    @usableFromInline let fixedWeight: UInt32?
    /// Whether the action may be chosen in this state. Never rejects a case: the engine only
    /// chooses among actions whose precondition holds.
    @usableFromInline let precondition: (M.Model) -> Bool
    /// Draws (or, replaying a trace, reads) the arguments; nil when no arguments fit after all.
    @usableFromInline let arguments: (inout Arguments, M.Model) -> M.Command?
    /// Steps the specification: what the command should observe. Mutates the model.
    @usableFromInline let predict: (M.Command, inout M.Model) -> Prediction<M.Observation>
    /// Runs the command on the system and returns what it observed.
    @usableFromInline let perform: (M.Command, inout M.System) throws -> M.Observation
    /// For a coded action (its command writes its own trace): the command's trace, derived only when
    /// a run records traces or reports a failure, never per step during a search.
    @usableFromInline let codedTrace: ((M.Command) -> TraceStep)?
    /// A search's step (`MachineRunner.runChunk`): draws the arguments, predicts and performs, with the
    /// command kept in the type the action draws — an action of a machine whose `Command` is `Any`
    /// neither boxes its arguments nor casts them back, and no planned step is made or copied.
    @usableFromInline let step: (inout Arguments, inout M.Model, inout M.System) -> StepResult<M>

    /// Every initialiser ends here: the closures over `M.Command` (recording, replay, export) and
    /// `step`, the same closures over the command's own type.
    @inlinable
    init(name: String, weight: @escaping (M.Model) -> UInt32, fixedWeight: UInt32?, precondition: @escaping (M.Model) -> Bool,
         arguments: @escaping (inout Arguments, M.Model) -> M.Command?,
         predict: @escaping (M.Command, inout M.Model) -> Prediction<M.Observation>,
         perform: @escaping (M.Command, inout M.System) throws -> M.Observation,
         codedTrace: ((M.Command) -> TraceStep)?,
         step: @escaping (inout Arguments, inout M.Model, inout M.System) -> StepResult<M>) {
        self.name = name
        self.weight = weight
        self.fixedWeight = fixedWeight
        self.precondition = precondition
        self.arguments = arguments
        self.predict = predict
        self.perform = perform
        self.codedTrace = codedTrace
        self.step = step
    }

    /// - Parameters:
    ///   - name: the step's name in traces, reports and coverage tables.
    ///   - weight: how often it is chosen relative to the other applicable actions.
    ///   - when: the precondition on the model (default: always).
    ///   - arguments: draws the arguments through `Arguments`, which also derives the trace.
    ///   - predict: the specification's step.
    ///   - perform: the system's step.
    @inlinable
    public init(_ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                arguments: @escaping (inout Arguments, M.Model) -> M.Command?,
                predict: @escaping (M.Command, inout M.Model) -> Prediction<M.Observation>,
                perform: @escaping (M.Command, inout M.System) throws -> M.Observation) {
        self.init(name: name, weight: { _ in weight }, fixedWeight: weight, precondition: precondition, arguments: arguments,
                  predict: predict, perform: perform, codedTrace: nil, step: Action.step(arguments, predict, perform))
    }

    /// An action whose weight depends on the model.
    @inlinable
    public init(_ name: String, weights: @escaping (M.Model) -> UInt32, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                arguments: @escaping (inout Arguments, M.Model) -> M.Command?,
                predict: @escaping (M.Command, inout M.Model) -> Prediction<M.Observation>,
                perform: @escaping (M.Command, inout M.System) throws -> M.Observation) {
        self.init(name: name, weight: weights, fixedWeight: nil, precondition: precondition, arguments: arguments,
                  predict: predict, perform: perform, codedTrace: nil, step: Action.step(arguments, predict, perform))
    }

    /// A search's step over commands of type `C`: draws them, predicts, performs and tells the runner
    /// what happened; a coded command's trace is derived only when the step went wrong.
    @inlinable
    static func step<C>(_ arguments: @escaping (inout Arguments, M.Model) -> C?,
                        _ predict: @escaping (C, inout M.Model) -> Prediction<M.Observation>,
                        _ perform: @escaping (C, inout M.System) throws -> M.Observation,
                        trace: ((C) -> TraceStep)? = nil) -> (inout Arguments, inout M.Model, inout M.System) -> StepResult<M> {
        { args, model, system in
            guard let command = arguments(&args, model) else { return .noCommand }
            if args.isRejected { return .rejected }
            let predicted = predict(command, &model)
            do {
                let observed = try perform(command, &system)
                if predicted.allows(observed) { return .allowed(predicted) }
                return .unexpected(predicted, .success(observed), codedTrace: trace?(command))
            } catch {
                return .unexpected(predicted, .failure(error), codedTrace: trace?(command))
            }
        }
    }
}

/// What an action's search step did (`Action.step`).
@usableFromInline
enum StepResult<M: StateMachine> {
    /// No arguments fit in this state: the runner chooses another action.
    case noCommand
    /// The draw rejected the case while drawing the arguments (nothing was predicted or run).
    case rejected
    /// The system observed what the prediction allows.
    case allowed(Prediction<M.Observation>)
    /// The system observed what the prediction does not allow, or threw; `codedTrace` is a coded
    /// command's own trace, for the failure's message (nil for other actions: the runner makes it
    /// from the recorded arguments).
    case unexpected(Prediction<M.Observation>, Result<M.Observation, any Error>, codedTrace: TraceStep?)
}

extension Action where M.Command == Any {
    /// An action with arguments of its own type `A`, for machines whose actions each take
    /// different arguments (`Command` left at its default, `Any`).
    @inlinable
    public init<A>(_ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                   arguments: @escaping (inout Arguments, M.Model) -> A?,
                   predict: @escaping (A, inout M.Model) -> Prediction<M.Observation>,
                   perform: @escaping (A, inout M.System) throws -> M.Observation) {
        self.init(name: name, weight: { _ in weight }, fixedWeight: weight, precondition: precondition,
                  arguments: { args, model in arguments(&args, model).map { $0 as Any } },
                  predict: { command, model in predict(command as! A, &model) },
                  perform: { command, system in try perform(command as! A, &system) },
                  codedTrace: nil, step: Action.step(arguments, predict, perform))
    }

    /// An action without arguments.
    @inlinable
    public init(_ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                predict: @escaping (inout M.Model) -> Prediction<M.Observation>,
                perform: @escaping (inout M.System) throws -> M.Observation) {
        self.init(name: name, weight: { _ in weight }, fixedWeight: weight, precondition: precondition,
                  arguments: { _, _ in () as Any },
                  predict: { _, model in predict(&model) }, perform: { _, system in try perform(&system) },
                  codedTrace: nil,
                  step: Action.step({ _, _ in () }, { _, model in predict(&model) }, { _, system in try perform(&system) }))
    }
}

/// A check over both states after every step (Hypothesis' `@invariant`), counted under `rule`, or
/// under the rule `decidedBy` names for the model's state when the check decides a more specific rule
/// (a row check after a failed save decides "a failed save keeps everything").
public struct Invariant<M: StateMachine> {
    public let rule: String
    /// Returns a failure when the invariant breaks; its rule may be more specific than `rule`.
    @usableFromInline let check: (M.Model, M.System) -> Failure?
    /// The rule this check decides in a state, for coverage; nil when the check decides nothing there
    /// (its guard does not hold). Without it every check counts under `rule`.
    @usableFromInline let decidedBy: ((M.Model) -> String?)?

    @inlinable
    public init(_ rule: String, decidedBy: ((M.Model) -> String?)? = nil, _ check: @escaping (M.Model, M.System) -> Failure?) {
        self.rule = rule
        self.check = check
        self.decidedBy = decidedBy
    }
}

extension Action where M.Command: TraceCodable {
    /// An action whose command writes and reads its own trace (a hand-written `TraceCodable`, for
    /// machines that keep one). `draw` returns nil when no command fits after all; the command's
    /// trace name must be the action's name so a replayed step finds its action.
    @inlinable
    public init(coded name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                draw: @escaping (M.Model, Draw) -> M.Command?,
                predict: @escaping (M.Command, inout M.Model) -> Prediction<M.Observation>,
                perform: @escaping (M.Command, inout M.System) throws -> M.Observation) {
        self.init(name: name, weight: { _ in weight }, fixedWeight: weight, precondition: precondition, draw: draw,
                  predict: predict, perform: perform)
    }

    /// A coded action whose weight depends on the model.
    @inlinable
    public init(coded name: String, weights: @escaping (M.Model) -> UInt32, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                draw: @escaping (M.Model, Draw) -> M.Command?,
                predict: @escaping (M.Command, inout M.Model) -> Prediction<M.Observation>,
                perform: @escaping (M.Command, inout M.System) throws -> M.Observation) {
        self.init(name: name, weight: weights, fixedWeight: nil, precondition: precondition, draw: draw,
                  predict: predict, perform: perform)
    }

    /// Both coded initialisers end here: the arguments are the command `draw` makes, its trace its own.
    @inlinable
    init(name: String, weight: @escaping (M.Model) -> UInt32, fixedWeight: UInt32?, precondition: @escaping (M.Model) -> Bool,
         draw: @escaping (M.Model, Draw) -> M.Command?,
         predict: @escaping (M.Command, inout M.Model) -> Prediction<M.Observation>,
         perform: @escaping (M.Command, inout M.System) throws -> M.Observation) {
        let arguments: (inout Arguments, M.Model) -> M.Command? = { args, model in args.coded { draw(model, $0) } }
        self.init(name: name, weight: weight, fixedWeight: fixedWeight, precondition: precondition, arguments: arguments,
                  predict: predict, perform: perform, codedTrace: { $0.trace },
                  step: Action.step(arguments, predict, perform, trace: { $0.trace }))
    }
}
