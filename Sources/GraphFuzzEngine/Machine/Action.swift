/// One kind of step of a machine: its name (the trace name), weight, precondition on the model, how it
/// draws its arguments from the model, what the specification predicts and what the system does.
/// Hypothesis' `@rule` with `@precondition`.
///
/// Each action has its own argument type `A` and observation type `O`. A machine with one command type and
/// one observation type for all its actions uses them for every action: each action's `arguments` draws a
/// command, and `predict` and `perform` are the machine's two functions over commands (`predict: predict,
/// perform: perform`), so the specification reads as one switch over the commands. A command that writes its
/// own trace (`TraceCodable`) is drawn by `Arguments.coded(applies:_:)`.
public struct Action<M: StateMachine> {
    public let name: String
    /// Relative frequency among the applicable actions; a function of the model for machines whose mix
    /// changes with the state (0 makes the action inapplicable).
    @usableFromInline let weight: (M.Model) -> UInt32
    /// The weight when it does not depend on the model (chosen without calling `weight`).
    @usableFromInline let fixedWeight: UInt32?
    /// Whether the action may be chosen in this state. Never rejects a case: the engine only chooses among
    /// actions whose precondition holds.
    @usableFromInline let precondition: (M.Model) -> Bool
    /// The step: draws (or reads) the arguments against the model, predicts, and — when the run asks — runs the
    /// system and judges what it observed (`Judge`). After a concurrent step the system may be in any of several
    /// states (the model, then those `StepIO.others` points to): the step is predicted in each, and the states whose
    /// prediction allows the observation are kept (none: the step fails as it would in the first). It holds the
    /// action's typed closures, so neither the arguments nor the observation are boxed; what a recording run keeps of
    /// the step it makes only then.
    @usableFromInline let step: (inout StepIO, inout M.Model, inout M.System?) -> StepVerdict
    /// The action's concurrent form (`Action.concurrent`); nil for an action whose perform is synchronous.
    @usableFromInline let concurrent: ConcurrentPart<M>?

    /// - Parameters:
    ///   - name: the step's name in traces, reports and coverage tables.
    ///   - weight: how often it is chosen relative to the other applicable actions.
    ///   - when: the precondition on the model (default: always).
    ///   - arguments: draws the arguments through `Arguments`, which also derives the trace; throws
    ///     `Arguments.unavailable` when none fit (any other error is a fault of the harness, never a verdict).
    ///   - predict: the specification's step.
    ///   - perform: the system's step.
    ///   - swift: the Swift call that performs the step against the production API (`queue.push(3)`), for
    ///     exported tests: an earlier step runs it, the last `#expect`s the prediction (`SwiftExportable`).
    @inlinable
    public init<A, O: Equatable>(_ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                                 arguments: @escaping (inout Arguments, M.Model) throws -> A,
                                 predict: @escaping (A, inout M.Model) -> Prediction<O>,
                                 perform: @escaping (A, inout M.System) throws -> O,
                                 swift: ((A) -> String)? = nil) {
        self.init(name, weights: nil, fixed: weight, when: precondition, arguments: arguments, predict: predict, perform: perform,
                  swiftLines: Action.expecting(swift))
    }

    /// An action whose weight depends on the model.
    @inlinable
    public init<A, O: Equatable>(_ name: String, weights: @escaping (M.Model) -> UInt32, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                                 arguments: @escaping (inout Arguments, M.Model) throws -> A,
                                 predict: @escaping (A, inout M.Model) -> Prediction<O>,
                                 perform: @escaping (A, inout M.System) throws -> O,
                                 swift: ((A) -> String)? = nil) {
        self.init(name, weights: weights, fixed: nil, when: precondition, arguments: arguments, predict: predict, perform: perform,
                  swiftLines: Action.expecting(swift))
    }

    /// An action without arguments; `swift` is its Swift call.
    @inlinable
    public init<O: Equatable>(_ name: String, weight: UInt32 = 1, when precondition: @escaping (M.Model) -> Bool = { _ in true },
                              predict: @escaping (inout M.Model) -> Prediction<O>,
                              perform: @escaping (inout M.System) throws -> O,
                              swift: String? = nil) {
        self.init(name, weights: nil, fixed: weight, when: precondition, arguments: { _, _ in () },
                  predict: { _, model in predict(&model) }, perform: { _, system in try perform(&system) },
                  swiftLines: Action.expecting(swift.map { call in { (_: Void) in call } }))
    }

    /// Every initialiser ends here. `swiftLines` renders a step of an exported test from its arguments,
    /// prediction and trace (the last one asserting).
    @inlinable
    init<A, O: Equatable>(_ name: String, weights: ((M.Model) -> UInt32)?, fixed: UInt32?,
                          when precondition: @escaping (M.Model) -> Bool = { _ in true },
                          arguments: @escaping (inout Arguments, M.Model) throws -> A,
                          predict: @escaping (A, inout M.Model) -> Prediction<O>,
                          perform: @escaping (A, inout M.System) throws -> O,
                          swiftLines: ((A, Prediction<O>, _ trace: TraceStep, _ isLast: Bool) -> [String])? = nil) {
        self.name = name
        self.weight = weights ?? { _ in fixed ?? 1 }
        self.fixedWeight = weights == nil ? fixed ?? 1 : nil
        self.precondition = precondition
        self.step = Action.step(name, arguments, predict, perform, swiftLines)
        concurrent = nil
    }

    /// A concurrent action (`Action.concurrent`): the runner runs it through `concurrent`, never `step`.
    @usableFromInline
    init(_ name: String, weight: UInt32, when precondition: @escaping (M.Model) -> Bool, concurrent: ConcurrentPart<M>) {
        self.name = name
        self.weight = { _ in weight }
        fixedWeight = weight
        self.precondition = precondition
        step = { io, _, _ in
            io.fault = HarnessFault("the concurrent action '\(name)' was run as a synchronous step")
            return .harnessFault
        }
        self.concurrent = concurrent
    }

    /// Swift lines from a call: an earlier step runs it, the last one expects the predicted value.
    @inlinable
    static func expecting<A, O>(_ call: ((A) -> String)?) -> ((A, Prediction<O>, TraceStep, Bool) -> [String])? {
        guard let call else { return nil }
        return { arguments, predicted, _, isLast in
            isLast ? ["#expect(\(call(arguments)) == \(Rendering.swiftLiteral(predicted.value)))  // \(predicted.rule)"] : ["_ = \(call(arguments))"]
        }
    }

    /// The step over arguments of type `A` and observations of type `O` (see `step`).
    @inlinable
    static func step<A, O: Equatable>(_ name: String, _ arguments: @escaping (inout Arguments, M.Model) throws -> A,
                                      _ predict: @escaping (A, inout M.Model) -> Prediction<O>,
                                      _ perform: @escaping (A, inout M.System) throws -> O,
                                      _ swiftLines: ((A, Prediction<O>, TraceStep, Bool) -> [String])?)
    -> (inout StepIO, inout M.Model, inout M.System?) -> StepVerdict {
        { io, model, system in
            let command: A
            do throws(StepVerdictError) { command = try drawArguments(name, arguments, &io, model) } catch { return error.verdict }
            // The step's whole trace: asked only for a failure's message or a record.
            func trace() -> TraceStep {
                if io.arguments.isCoded && !io.arguments.tracesCoded && !io.arguments.isReplaying,
                   let coded = command as? any TraceCodable {
                    return coded.trace
                }
                return io.arguments.trace(name)
            }
            // Counts the prediction the step is judged by and, recording, keeps the step's record.
            @inline(__always)
            func keep(_ predicted: Prediction<O>) {
                if io.tally.counts { io.tally.count(predicted, of: io.action) }
                if io.records {
                    let recorded = trace()
                    io.record = RecordedStep(trace: recorded, value: Rendering.text(predicted.value), rule: predicted.rule,
                                             swift: swiftLines.map { lines in { isLast in lines(command, predicted, recorded, isLast) } })
                }
            }
            let predicted = predict(command, &model)
            // After a concurrent step, the other states the system may be in (nil in one state, the usual).
            let others = io.others?.assumingMemoryBound(to: [M.Model].self)
            guard io.performs else {
                others?.pointee.removeAll()
                keep(predicted)
                return .predicted
            }
            io.willPerform?(io.index)
            let observed: O
            do { observed = try perform(command, &system!) } catch {
                keep(predicted)
                if let fault = error as? HarnessFault {
                    io.fault = HarnessFault(message: fault.message, place: fault.place, step: io.index, stepTrace: "\(trace())")
                    return .harnessFault
                }
                io.failure = Judge.thrown(predicted, "\(error)", trace: trace())
                return .failed
            }
            // Several states: judged by the first whose prediction explains the observation (none: as in the model).
            if let others, let explaining = Judge.keep(explaining: observed, &model, predicted, &others.pointee, predict: { predict(command, &$0) }) {
                keep(explaining)
                return .passed
            }
            keep(predicted)
            if Judge.allows(predicted, observed) { return .passed }
            io.failure = io.describesFailures ? Judge.mismatch(predicted, observed, trace: trace()) : Judge.mismatch(predicted, observed)
            return .failed
        }
    }
}

extension Action {
    /// Draws (or reads) a step's arguments against `model`; when there are none, the step's verdict: none fit
    /// (or, replaying, a value could not be read: the runner reports it, nothing is predicted), the draw was
    /// rejected, or the generator threw (a harness fault, left in `io`). Thrown, not a `Result`: a machine whose steps
    /// are not specialised would instantiate `Result`'s metadata at every step.
    @inlinable
    static func drawArguments<A>(_ name: String, _ arguments: (inout Arguments, M.Model) throws -> A, _ io: inout StepIO,
                                 _ model: M.Model) throws(StepVerdictError) -> A {
        let command: A
        do { command = try arguments(&io.arguments, model) } catch is Arguments.Unavailable {
            throw StepVerdictError(.unavailable)
        } catch {
            io.fault = io.argumentsFault(error, action: name)
            throw StepVerdictError(.harnessFault)
        }
        if io.arguments.isRejected { throw StepVerdictError(.rejected) }
        if io.arguments.failure != nil { throw StepVerdictError(.unavailable) }
        return command
    }

}

/// A step verdict as an error, for `Result`.
@usableFromInline
struct StepVerdictError: Error {
    @usableFromInline let verdict: StepVerdict
    @usableFromInline init(_ verdict: StepVerdict) { self.verdict = verdict }
}

/// What a step did (`Action.step`); a failure or harness fault is left in the step's `StepIO`.
@usableFromInline
enum StepVerdict: Sendable {
    /// No arguments fit in this state (or, replaying, one could not be read): the runner chooses another
    /// action, or reports the replayed step.
    case unavailable
    /// The draw rejected the case while drawing the arguments (nothing was predicted or run).
    case rejected
    /// Predicted, not run on the system (the run stops the system before this step, or has none).
    case predicted
    /// The system observed what the prediction allows; the invariants are checked next.
    case passed
    /// The system observed what the prediction does not allow, or threw (`StepIO.failure`).
    case failed
    /// The harness could not do its part of the step (`StepIO.fault`).
    case harnessFault
}

/// What a recording run keeps of a step: its trace, the predicted value and rule, and its Swift lines.
@usableFromInline
struct RecordedStep {
    @usableFromInline var trace: TraceStep
    /// The predicted value as reports write it.
    @usableFromInline var value: String
    @usableFromInline var rule: String
    /// The step's lines of an exported test, given whether it is the last step.
    @usableFromInline var swift: ((Bool) -> [String])?
    /// The expectation written out, for a step whose prediction is not one value under one rule (a
    /// concurrent step's branches).
    @usableFromInline var written: String?

    @inlinable
    init(trace: TraceStep, value: String, rule: String, swift: ((Bool) -> [String])?) {
        self.trace = trace
        self.value = value
        self.rule = rule
        self.swift = swift
    }

    /// The expectation as reports and case records write it: `3 [Q2]`.
    var expectation: String { written ?? "\(value) [\(rule)]" }
}

/// What the runner lends each step: the arguments, the coverage counts, what to do, and (recording) what the
/// step leaves for the record. One for every step of a case, or of a chunk of cases.
@usableFromInline
struct StepIO {
    @usableFromInline var arguments: Arguments
    @usableFromInline var tally: Tally
    /// Whether the step leaves a `record`.
    @usableFromInline var records: Bool
    /// Whether the step runs on the system (false: predicted only).
    @usableFromInline var performs = true
    /// Whether a mismatch is written out (`RunOptions.describesFailures`).
    @usableFromInline var describesFailures: Bool
    /// After a concurrent step that left several states the system may be in, the other states (`[M.Model]`, the
    /// model holding the first) for the step to judge among, during the step; nil in one state. Not a parameter of
    /// `Action.step`: every step would pay for it, in a register or on the stack, and a machine whose steps are not
    /// specialised would look up the array's metadata.
    @usableFromInline var others: UnsafeMutableRawPointer?
    /// The step's 0-based index and its action's.
    @usableFromInline var index = 0
    @usableFromInline var action = 0
    /// Told the step's index just before the system runs it.
    @usableFromInline var willPerform: ((Int) -> Void)?
    /// The record of the last step (when `records`).
    @usableFromInline var record: RecordedStep?
    /// The failure of the last step, when it failed; the harness's fault, when it could not do its part; why a traced
    /// step could not be read or applied.
    @usableFromInline var failure: Failure?
    @usableFromInline var fault: HarnessFault?
    @usableFromInline var refused: TraceReplayError?

    @inlinable
    init(arguments: Arguments, tally: Tally, records: Bool, describesFailures: Bool = true, willPerform: ((Int) -> Void)?) {
        self.arguments = arguments
        self.tally = tally
        self.records = records
        self.describesFailures = describesFailures
        self.willPerform = willPerform
    }

    /// The harness fault of an `arguments` closure that threw something other than `Arguments.unavailable`.
    @usableFromInline
    func argumentsFault(_ error: any Error, action: String) -> HarnessFault {
        let stepTrace = arguments.isReplaying ? "\(arguments.trace(action))" : action
        if let fault = error as? HarnessFault {
            return HarnessFault(message: fault.message, place: fault.place, step: index, stepTrace: stepTrace)
        }
        return HarnessFault(message: "the arguments of action '\(action)' threw \(error)", place: "action '\(action)'", step: index,
                            stepTrace: stepTrace)
    }
}
