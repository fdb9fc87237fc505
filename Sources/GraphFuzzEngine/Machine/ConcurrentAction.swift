/// How a machine's concurrent steps are drawn and scheduled (`StateMachine.concurrentSteps`).
///
/// A step whose action is `Action.concurrent` may get more actions running at the same time, each drawn among
/// the concurrent actions whose precondition holds, its arguments drawn against the model at the step's start
/// (QuickCheck's parallel state machines: a sequential prefix, a concurrent group, more sequential steps).
/// The group runs under a `Scheduler`, its interleaving drawn from the case's choices, and its observations
/// must be explained by the specification run in some order that respects which action finished before which
/// started (linearizability).
public struct ConcurrentSteps: Sendable, Equatable {
    /// The chance that a step whose action may run concurrently gets a second action; each further one
    /// (up to `maxBranches`) comes with chance 1/2. 0 runs every action alone (still under the scheduler).
    public var groupProbability: Double
    /// The most actions in one concurrent step (2...32).
    public var maxBranches: Int
    /// How the scheduler picks the next job: `ScheduleStrategy.standard` by default (docs/scheduling.md compares
    /// the strategies).
    public var strategy: ScheduleStrategy
    /// A concurrent step that runs this many jobs without finishing is a `livelock`.
    public var maxJobs: Int
    /// How long a concurrent step in which nothing can run waits for work handed over from another thread
    /// before it is called a `deadlock`. Work from other threads is outside the scheduler's control and ends
    /// the case as a harness fault when it arrives; this wait only keeps a slow one from passing for a deadlock.
    public var outsideWait: Duration

    public init(groupProbability: Double = 0.25, maxBranches: Int = 3, strategy: ScheduleStrategy = .standard,
                maxJobs: Int = 100_000, outsideWait: Duration = .milliseconds(100)) {
        precondition((2...32).contains(maxBranches), "ConcurrentSteps.maxBranches must be in 2...32")
        self.groupProbability = groupProbability
        self.maxBranches = maxBranches
        self.strategy = strategy
        self.maxJobs = maxJobs
        self.outsideWait = outsideWait
    }
}

extension Action {
    /// An action that may run concurrently with others: its `perform` is asynchronous over the shared system
    /// (an actor, or a class that is `Sendable`), since several tasks use it at once and `inout` cannot be
    /// shared. Run alone it is a step like any other (under the scheduler too); in a concurrent step it is
    /// one of its branches.
    ///
    /// - Parameters:
    ///   - name: the step's name in traces, reports and coverage tables.
    ///   - weight: how often it is chosen relative to the other applicable actions.
    ///   - when: the precondition on the model. In a concurrent step it is checked at the step's start.
    ///   - arguments: draws the arguments through `Arguments` against the model at the step's start.
    ///   - predict: the specification's step. In a concurrent step it is run in several orders, on states
    ///     the other branches leave: it must predict something in every state (an object another branch
    ///     deleted, for instance).
    ///   - perform: the system's step, run in a task of the case's scheduler. Every job it makes must stay
    ///     under the scheduler (no Dispatch queues, no threads of its own): work from another thread ends the
    ///     case as a harness fault.
    ///   - joinsOnly: true for an action that only runs beside others: it is drawn as a further branch of a
    ///     concurrent step another action begins, never as a step's first action (a user's step to interleave
    ///     with a task that suspends, which alone would be an ordinary step at a scheduled step's cost).
    @inlinable
    public static func concurrent<A: Sendable, O: Equatable & Sendable>(
        _ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
        arguments: @escaping (inout Arguments, M.Model) throws -> A,
        predict: @escaping (A, inout M.Model) -> Prediction<O>,
        perform: @escaping @Sendable (A, M.System) async throws -> O,
        joinsOnly: Bool = false
    ) -> Action where M.System: Sendable {
        concurrent(name, weight: weight, when: precondition, arguments: arguments, predict: predict, cancelled: nil, perform: perform,
                   joinsOnly: joinsOnly)
    }

    /// Every concurrent action ends here; `cancelled` nil: the action is never cancelled. Inlined where the machine
    /// declares its actions, so a branch's closures are specialised for its arguments, observation and machine.
    @inlinable
    static func concurrent<A: Sendable, O: Equatable & Sendable>(
        _ name: String, weight: UInt32, when precondition: @escaping (M.Model) -> Bool,
        arguments: @escaping (inout Arguments, M.Model) throws -> A,
        predict: @escaping (A, inout M.Model) -> Prediction<O>, cancelled: ((A, inout M.Model) -> Prediction<O>)?,
        perform: @escaping @Sendable (A, M.System) async throws -> O, joinsOnly: Bool
    ) -> Action where M.System: Sendable {
        Action(name, weight: weight, when: precondition, concurrent: ConcurrentPart(joinsOnly: joinsOnly) { args, model in
            let command = try arguments(&args, model)
            return PendingBranch(trace: args.trace(name), created: args.created, command: command, predict: predict, cancelled: cancelled,
                                 perform: perform)
        })
    }

    /// A concurrent action without arguments.
    @inlinable
    public static func concurrent<O: Equatable & Sendable>(
        _ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
        predict: @escaping (inout M.Model) -> Prediction<O>,
        perform: @escaping @Sendable (M.System) async throws -> O
    ) -> Action where M.System: Sendable {
        concurrent(name, weight: weight, when: precondition, arguments: { _, _ in () },
                   predict: { _, model in predict(&model) }, perform: { _, system in try await perform(system) })
    }
}

/// What a concurrent action adds to an action: its arguments drawn alone, and a branch that runs its async
/// perform and judges what it observed.
@usableFromInline
struct ConcurrentPart<M: StateMachine> {
    /// Whether the action is only drawn as a further branch, never as a step's first action.
    @usableFromInline let joinsOnly: Bool
    /// Draws (or reads) the arguments against the model at the step's start; throws as `arguments` does.
    @usableFromInline let prepare: (inout Arguments, M.Model) throws -> PendingBranch<M>

    @inlinable
    init(joinsOnly: Bool, prepare: @escaping (inout Arguments, M.Model) throws -> PendingBranch<M>) {
        self.joinsOnly = joinsOnly
        self.prepare = prepare
    }
}

/// What a branch of a concurrent step observed.
@usableFromInline
enum BranchResult: Sendable {
    /// The action returned this observation (of the action's observation type).
    case observed(any Sendable)
    /// The action threw an error that is not a harness fault: what it says.
    case threw(String)
    /// The harness could not do its part of the action.
    case fault(HarnessFault)
}

/// A prediction with its value as reports write it.
@usableFromInline
struct WrittenPrediction {
    /// Writes the predicted value: only a record asks for it (coverage counts need the rules alone).
    @usableFromInline let render: () -> String
    @usableFromInline var value: String { render() }
    @usableFromInline var rule: String
    /// Other rules it credits (its parts' and those it says it decided), for coverage.
    @usableFromInline var credits: [String]

    @inlinable
    init(render: @escaping () -> String, rule: String, credits: [String]) {
        self.render = render
        self.rule = rule
        self.credits = credits
    }
}

/// One action of a concurrent step, its arguments drawn: what runs it on the system, and its prediction and observation
/// for the judge (`Judge`, which judges a step of one action too).
@usableFromInline
struct PendingBranch<M: StateMachine> {
    /// The action's trace (`withdraw(amount: 3)`) and the reference it creates.
    @usableFromInline var trace: TraceStep
    @usableFromInline var created: Ref?
    /// The action's index (set by the runner).
    @usableFromInline var action = 0
    /// Whether the scheduler may cancel the branch at a drawn point (an action with a `cancelled` prediction).
    @usableFromInline let cancellable: Bool
    /// The action on the system, as the body of a task.
    @usableFromInline let start: (M.System) -> nonisolated(nonsending) @Sendable () async -> BranchResult
    /// Predicts the action on `model`; whether the prediction allows `result` (`Judge`).
    @usableFromInline let allows: (BranchResult, inout M.Model) -> Bool
    /// For a branch that was cancelled while it ran: whether its prediction, or else what the specification says a
    /// cancelled call may observe and leave, allows `result` (advancing `model` by the one that does).
    @usableFromInline let allowsCancelled: (BranchResult, inout M.Model) -> Bool
    /// The failure of an observation of a cancelled branch that neither prediction allows: the cancelled one's.
    @usableFromInline let cancelledMismatch: (BranchResult, M.Model, TraceStep) -> Failure
    /// What a cancelled call may leave, written out (nil: the action is never cancelled).
    @usableFromInline let predictCancelled: ((inout M.Model) -> WrittenPrediction)?
    /// Predicts the action on `model`, written out.
    @usableFromInline let predict: (inout M.Model) -> WrittenPrediction
    /// The failure of an observation that the prediction in `model` does not allow (`Judge`).
    @usableFromInline let mismatch: (BranchResult, M.Model, TraceStep) -> Failure
    /// What the action observed, as reports write it.
    @usableFromInline let observed: (BranchResult) -> String

    @inlinable
    init<A: Sendable, O: Equatable & Sendable>(trace: TraceStep, created: Ref?, command: A, predict: @escaping (A, inout M.Model) -> Prediction<O>,
                                               cancelled: ((A, inout M.Model) -> Prediction<O>)?,
                                               perform: @escaping @Sendable (A, M.System) async throws -> O) where M.System: Sendable {
        self.trace = trace
        self.created = created
        cancellable = cancelled != nil
        start = { system in
            {
                do { return .observed(try await perform(command, system)) } catch let fault as HarnessFault {
                    return .fault(fault)
                } catch {
                    return .threw("\(error)")
                }
            }
        }
        // The judging closures share one object (each captures it alone, so none allocates a context of its own).
        let call = BranchCall<M.Model, A, O>(command: command, predict: predict, cancelled: cancelled)
        allows = { result, model in call.allows(result, &model) }
        allowsCancelled = { result, model in call.allowsCancelled(result, &model) }
        mismatch = { result, model, trace in call.mismatch(result, model, trace) }
        cancelledMismatch = { result, model, trace in call.cancelledMismatch(result, model, trace) }
        predictCancelled = cancelled == nil ? nil : { model in call.written(call.cancelled!(call.command, &model)) }
        self.predict = { model in call.written(call.predict(call.command, &model)) }
        observed = { result in
            switch result {
            case .observed(let value): return Rendering.text(value as! O)
            case .threw(let error): return "threw \(error)"
            case .fault(let fault): return "harness fault: \(fault.message)"
            }
        }
    }
}

/// A branch's arguments and the specification's functions for them: how `PendingBranch` judges what the branch observed.
@usableFromInline
final class BranchCall<Model, A, O: Equatable> {
    @usableFromInline let command: A
    @usableFromInline let predict: (A, inout Model) -> Prediction<O>
    @usableFromInline let cancelled: ((A, inout Model) -> Prediction<O>)?

    @inlinable
    init(command: A, predict: @escaping (A, inout Model) -> Prediction<O>, cancelled: ((A, inout Model) -> Prediction<O>)?) {
        self.command = command
        self.predict = predict
        self.cancelled = cancelled
    }

    /// Predicts the call on `model`; whether the prediction allows `result` (`Judge`).
    @inlinable
    func allows(_ result: BranchResult, _ model: inout Model) -> Bool {
        let predicted = predict(command, &model)
        guard case .observed(let value) = result else { return false }
        return Judge.allows(predicted, value as! O)
    }

    /// For a cancelled call: its prediction, or else what a cancelled call may observe and leave, allows `result`
    /// (advancing `model` by the one that does).
    @inlinable
    func allowsCancelled(_ result: BranchResult, _ model: inout Model) -> Bool {
        var completed = model
        if allows(result, &completed) {
            model = completed
            return true
        }
        guard let cancelled, case .observed(let value) = result, let observed = value as? O else { return false }
        return cancelled(command, &model).allows(observed)
    }

    /// The failure of `result` that the prediction in `model` does not allow.
    @inlinable
    func mismatch(_ result: BranchResult, _ model: Model, _ trace: TraceStep) -> Failure {
        var model = model
        let predicted = predict(command, &model)
        switch result {
        case .observed(let value): return Judge.mismatch(predicted, value as! O, trace: trace)
        case .threw(let error): return Judge.thrown(predicted, error, trace: trace)
        case .fault(let fault): return Judge.thrown(predicted, fault.message, trace: trace)
        }
    }

    /// The failure of a cancelled call's `result` that neither prediction allows: the cancelled one's.
    @inlinable
    func cancelledMismatch(_ result: BranchResult, _ model: Model, _ trace: TraceStep) -> Failure {
        var model = model
        guard let cancelled, case .observed(let value) = result else { return mismatch(result, model, trace) }
        let predicted = cancelled(command, &model)
        var failure = predicted.mismatch(value as! O, trace: trace)
        failure.message = "cancelled: " + failure.message
        return failure
    }

    /// `predicted` written out.
    @inlinable
    func written(_ predicted: Prediction<O>) -> WrittenPrediction {
        WrittenPrediction(render: { Rendering.text(predicted.value) }, rule: predicted.rule, credits: predicted.credits.map(\.rule))
    }
}
