/// Concurrent steps: an `Action.concurrent` action, alone or with more actions at once, run under the
/// scheduler and judged by linearizability against the states earlier steps may have left.
///
/// Drawn, a concurrent step is, inside its `.step` span: the first action's choice and arguments (as any
/// step's), then a `.list` of further branches — each an `.element` holding a "more" flag (true with
/// `groupProbability` for the second, 1/2 for each further one), the action's choice among the concurrent
/// actions whose precondition holds at the step's start (`.command`) and its arguments, drawn against the
/// model at the step's start — ending with a false flag, and last the scheduler's choices (`.schedule`).
/// Deleting an element removes a branch, zeroing the flags leaves one action, and zeroing the schedule runs
/// the jobs in the order they were enqueued: the shrinker moves a concurrent step towards fewer branches and
/// FIFO order without knowing what the spans mean.
///
/// Traced, a step of one action that ran in FIFO order is the action's own trace (`withdraw(amount: 3)`); any
/// other is `concurrently(A: withdraw(amount: 3), B: withdraw(amount: 4), schedule: [1, 0, 1])`: the branches
/// by label, and the schedule as the picks of every scheduling decision that had a choice (the index of the job
/// run among those that could run, oldest first; trailing zeros left out), and, when the scheduler cancelled a
/// branch of a cancellable action, `cancel: [0, 3]` (each branch's cancellation point). Replaying the trace replays
/// those picks and cancellations, whatever strategy drew them.
extension MachineRunner {
    /// The step name of a concurrent step's trace.
    @usableFromInline static var groupStepName: String { "concurrently" }

    /// Where a concurrent step comes from.
    @usableFromInline
    enum GroupSource {
        /// Drawn: the draw, and whether it keeps spans.
        case draw(Draw, spans: Bool)
        /// Read from a trace: a step of one action (the caller has begun reading its arguments).
        case trace(TraceStep)
        /// Read from a trace: a `concurrently(…)` step.
        case group(TraceStep)

        /// Whether it is a traced `concurrently(…)` step.
        @usableFromInline var isGroup: Bool {
            if case .group = self { return true }
            return false
        }
    }

    /// A concurrent step: a concurrent action's (alone or with others) over the states the system may be in (`model`
    /// and `others`), which it leaves as the states after the step.
    /// Specialised for the machine but never inlined: the step loop of a machine whose steps are sequential stays as
    /// small as it was.
    @inlinable @inline(never)
    func concurrentStep(_ a: Int, _ source: GroupSource, _ options: RunOptions, _ scratch: inout Scratch, _ model: inout M.Model,
                        _ others: inout [M.Model], _ system: inout M.System?, refs: Int) -> StepEnd {
        // The states in the scratch's buffer, moved back out after the step (the buffer keeps no model: a model
        // whose storage the buffer shared would copy it at its next change).
        scratch.states.append(model)
        scratch.states.append(contentsOf: others)
        defer {
            model = scratch.states[0]
            others.removeAll(keepingCapacity: true)
            others.append(contentsOf: scratch.states.dropFirst())
            scratch.states.removeAll(keepingCapacity: true)
        }
        return concurrentStep(a, source, options, &scratch.io, &scratch.chooser, &scratch.states, &system, refs: refs)
    }

    /// Runs the concurrent step whose first action is `a`: draws or reads its branches, runs them under the
    /// scheduler and checks what they observed against `states` (the states the system may be in, the
    /// first the one arguments are drawn against), which it leaves as the states after the step.
    ///
    /// Inlinable, with what it drives on every step (`prepare`, `drawBranches`, `judge`, `Linearizability`): compiled
    /// where the machine's step loop is, specialised for the machine, a step looks up no generic metadata at run time.
    @inlinable
    func concurrentStep(_ a: Int, _ source: GroupSource, _ options: RunOptions, _ io: inout StepIO, _ chooser: inout Chooser,
                        _ states: inout [M.Model], _ system: inout M.System?, refs: Int) -> StepEnd {
        let settings = shared.concurrency
        var branches: [PendingBranch<M>] = []
        var picks: [Int] = []
        var cancels: [Int] = []
        if case .group(let step) = source {
            switch readBranches(step, &io, states[0], refs: refs) {
            case .success(let read):
                branches = read.branches
                picks = read.picks
                cancels = read.cancels
            case .failure(let refused):
                io.refused = refused
                return StepEnd(.unavailable)
            }
        } else {
            // The first action's arguments, in the step's arguments (begun by the caller).
            switch prepare(a, &io, states[0]) {
            case .success(let branch): branches.append(branch)
            case .failure(let error): return StepEnd(error.verdict)
            }
            if case .draw(let draw, let spans) = source,
               let verdict = drawBranches(&branches, draw, spans: spans, settings, &io, &chooser, states[0], refs: refs) {
                return StepEnd(verdict)
            }
        }
        var end = StepEnd(.passed)
        end.created = branches.reduce(0) { $0 + ($1.created == nil ? 0 : 1) }
        guard let system, io.index < options.systemSteps else {
            // Not run: the branches predicted in their order, on the first state.
            var model = states[0]
            let predicted = branches.map { $0.predict(&model) }
            if io.records { io.record = groupRecord(branches, picks: [], cancels: [], how: "not run", predicted: predicted) }
            states = [model]
            end.verdict = .predicted
            return end
        }
        io.willPerform?(io.index)
        guard #available(macOS 15.0, *) else {
            io.fault = HarnessFault("concurrent steps need macOS 15 (task executors)")
            end.verdict = .harnessFault
            return end
        }
        var schedulerOptions = Scheduler.Options(strategy: settings.strategy, maxJobs: settings.maxJobs, outsideWait: settings.outsideWait)
        let draw: Draw
        switch source {
        case .draw(let drawn, _): draw = drawn
        case .trace, .group:
            draw = Draw(replaying: ChoiceSequence([]))
            schedulerOptions.replaying = picks
            schedulerOptions.replayingCancellations = cancels
        }
        let (run, records) = Scheduler(draw: draw, options: schedulerOptions).runBranches(branches.enumerated().map { index, branch in
            ScheduledBranch(concurrentBranchLabel(index), cancellable: branch.cancellable, running: branch.start(system))
        })
        if case .group(let step) = source, let invalid = run.invalidPick {
            end.verdict = .unavailable
            io.refused = TraceReplayError(step: io.index, message: "step \(io.index + 1) '\(step)': schedule pick \(invalid.pick) at job #\(invalid.step) "
                                          + "is outside the \(invalid.choices) jobs that could run (0...\(invalid.choices - 1))")
            return end
        }
        let judged = judge(branches, run, records, states: states, io: &io)
        end.verdict = judged.verdict
        guard judged.verdict != .harnessFault else { return end }
        if io.tally.counts || io.records { describe(branches, judged, run, records, states: states, &io) }
        guard judged.verdict == .passed, let checked = judged.checked else { return end }
        states = checked.ends
        end.endsCase = checked.truncated
        return end
    }

    /// Counts the step's rules and leaves its record: what the specification predicts for each branch, in the
    /// order that explains the observations (failing: the order that explains the most, else label order), and,
    /// for a step that passed with branches or a choice of interleaving, the interleaving (a later step's failure may
    /// be its consequence; a failing step's message has it already).
    @usableFromInline
    func describe(_ branches: [PendingBranch<M>], _ judged: (verdict: StepVerdict, checked: Linearizability<M.Model>.Result?),
                          _ run: ScheduledRun<Void>, _ records: [BranchRecord<BranchResult>], states: [M.Model], _ io: inout StepIO) {
        let picks = run.picks
        let cancels = Self.cancellations(records)
        let checked = judged.checked
        let order: [Int]
        var model: M.Model
        if let found = checked?.order {
            order = found
            model = states[checked!.orderStart]
        } else if let closest = checked?.closest {
            order = closest.prefix + [closest.failing] + branches.indices.filter { !closest.prefix.contains($0) && $0 != closest.failing }
            model = states[closest.start]
        } else {
            order = Array(branches.indices)
            model = states[0]
        }
        var predicted: [WrittenPrediction?] = Array(repeating: nil, count: branches.count)
        for index in order {
            // A cancelled branch its own prediction does not explain is the cancelled call's to predict.
            var completed = model
            if records[index].cancelled != nil, let cancelled = branches[index].predictCancelled, let result = records[index].result,
               !branches[index].allows(result, &completed) {
                predicted[index] = cancelled(&model)
            } else {
                predicted[index] = branches[index].predict(&model)
            }
        }
        if io.tally.counts {
            for index in order { io.tally.count(rule: predicted[index]!.rule, credits: predicted[index]!.credits, of: branches[index].action) }
        }
        if io.records {
            let how = judged.verdict == .passed ? "in the order " + order.map(concurrentBranchLabel).joined(separator: ", ")
                : checked == nil ? "in label order; the step did not finish"
                : "no order explains the observations; the closest is " + order.map(concurrentBranchLabel).joined(separator: ", ")
            io.record = groupRecord(branches, picks: picks, cancels: cancels, how: how, predicted: predicted.map { $0! })
            if judged.verdict == .passed && (branches.count > 1 || !picks.isEmpty || !cancels.isEmpty) {
                io.record!.written = io.record!.expectation + "\n" + Self.interleaving(run)
            }
        }
    }

    // MARK: Branches

    /// Draws or reads action `a`'s arguments against `model` as a branch; the step's verdict when none fit.
    @inlinable
    func prepare(_ a: Int, _ io: inout StepIO, _ model: M.Model) -> Result<PendingBranch<M>, StepVerdictError> {
        Result { () throws(StepVerdictError) in
            var branch = try Action<M>.drawArguments(actions[a].name, actions[a].concurrent!.prepare, &io, model)
            branch.action = a
            return branch
        }
    }

    /// Draws the further branches of a step (see the type's comment); a verdict when the step cannot go on.
    @inlinable
    func drawBranches(_ branches: inout [PendingBranch<M>], _ draw: Draw, spans: Bool, _ settings: ConcurrentSteps,
                              _ io: inout StepIO, _ chooser: inout Chooser, _ model: M.Model, refs: Int) -> StepVerdict? {
        guard settings.groupProbability > 0 else { return nil }
        if spans { draw.beginSpan(.list) }
        defer { if spans { draw.endSpan() } }
        while branches.count < settings.maxBranches {
            if spans { draw.beginSpan(.element) }
            defer { if spans { draw.endSpan() } }
            guard draw.chooseBool(probability: branches.count == 1 ? settings.groupProbability : 0.5) else { return nil }
            var excluded = shared.sequentialActions
            while true {
                if spans { draw.beginSpan(.command) }
                let next = chooser.choose(model, excluded: excluded, draw)
                if spans { draw.endSpan() }
                guard let b = next else { return nil }
                let created = branches.reduce(0) { $0 + ($1.created == nil ? 0 : 1) }
                io.arguments.begin(nextRef: Ref(refs + created), tracesCoded: true)
                switch prepare(b, &io, model) {
                case .success(let branch):
                    branches.append(branch)
                case .failure(let error):
                    if error.verdict == .unavailable {
                        excluded.append(b)
                        continue
                    }
                    return error.verdict
                }
                break
            }
        }
        return nil
    }

    /// The branches and schedule of a traced `concurrently(…)` step.
    @usableFromInline
    func readBranches(_ step: TraceStep, _ io: inout StepIO, _ model: M.Model, refs: Int)
    -> Result<(branches: [PendingBranch<M>], picks: [Int], cancels: [Int]), TraceReplayError> {
        func refuse(_ message: String) -> Result<(branches: [PendingBranch<M>], picks: [Int], cancels: [Int]), TraceReplayError> {
            .failure(TraceReplayError(step: io.index, message: "step \(io.index + 1) '\(step)': \(message)"))
        }
        var branches: [PendingBranch<M>] = []
        var picks: [Int] = []
        var cancels: [Int] = []
        for argument in step.arguments {
            if argument.label == "schedule" || argument.label == "cancel" {
                let what = argument.label == "schedule" ? "pick" : "cancellation point"
                guard case .list(let values) = argument.value else { return refuse("'\(argument.label)' is not a list of \(what)s like [1, 0, 2]") }
                for value in values {
                    guard case .int(let number) = value, number >= 0 else { return refuse("'\(argument.label)' holds \(value), not a \(what) (0, 1, 2, …)") }
                    if argument.label == "schedule" { picks.append(number) } else { cancels.append(number) }
                }
                continue
            }
            guard argument.label == concurrentBranchLabel(branches.count) else {
                return refuse("expected branch \(concurrentBranchLabel(branches.count)), found '\(argument.label)'")
            }
            guard case .step(let branchStep) = argument.value else { return refuse("branch \(argument.label) is not a step like withdraw(amount: 3)") }
            guard let b = actions.firstIndex(where: { $0.name == branchStep.name }) else {
                return refuse("unknown step '\(branchStep.name)' in branch \(argument.label) (expected one of \(actions.map(\.name).joined(separator: ", ")))")
            }
            guard actions[b].concurrent != nil else {
                return refuse("'\(branchStep.name)' in branch \(argument.label) cannot run concurrently (its perform is not async)")
            }
            let created = branches.reduce(0) { $0 + ($1.created == nil ? 0 : 1) }
            io.arguments.begin(reading: branchStep, nextRef: Ref(refs + created))
            switch prepare(b, &io, model) {
            case .success(let branch): branches.append(branch)
            case .failure:
                let reason = io.arguments.failure?.message
                    ?? "it cannot be applied in the state the earlier steps leave (a reference or precondition no longer holds)"
                return refuse("branch \(argument.label) '\(branchStep)': \(reason)")
            }
        }
        guard !branches.isEmpty else { return refuse("a concurrent step needs at least one branch (A: …)") }
        if let index = cancels.indices.first(where: { cancels[$0] > 0 && !(branches.indices.contains($0) && branches[$0].cancellable) }) {
            return refuse("'cancel' cancels branch \(concurrentBranchLabel(index)), which is not a cancellable action's")
        }
        return .success((branches, picks, cancels))
    }

    // MARK: The verdict

    /// Judges a scheduled run: the scheduler's own outcomes (work from other threads, a deadlock, the job
    /// limit), then each branch's (a harness fault, a thrown error), then linearizability.
    @inlinable
    func judge(_ branches: [PendingBranch<M>], _ run: ScheduledRun<Void>, _ records: [BranchRecord<BranchResult>],
                       states: [M.Model], io: inout StepIO) -> (verdict: StepVerdict, checked: Linearizability<M.Model>.Result?) {
        // Rendered only for a failure's message.
        var interleaving: String { Self.interleaving(run) }
        var trace: TraceStep { groupTrace(branches, picks: run.picks, cancels: Self.cancellations(records)) }
        if run.externalJobs > 0 {
            io.fault = HarnessFault(message: "work from other threads reached the concurrent step (\(run.uncontrolled.joined(separator: "; "))): "
                                    + "its interleaving is not under the scheduler's control", place: "the case's scheduler",
                                    step: io.index, stepTrace: "\(trace)")
            return (.harnessFault, nil)
        }
        switch run.outcome {
        case .deadlock(let waiting):
            io.failure = Failure(rule: "deadlock", kind: .deadlock,
                                 message: "\(trace): deadlock: nothing can run, and \(waiting.joined(separator: "; "))\n" + interleaving)
            return (.failed, nil)
        case .jobLimit(let jobs):
            io.failure = Failure(rule: "livelock", kind: .livelock,
                                 message: "\(trace): ran \(jobs) jobs without finishing (ConcurrentSteps.maxJobs)\n" + interleaving)
            return (.failed, nil)
        case .completed:
            break
        }
        for index in records.indices {
            let result = records[index].result!
            switch result {
            case .fault(let fault):
                io.fault = HarnessFault(message: fault.message, place: fault.place, step: io.index, stepTrace: "\(trace)")
                return (.harnessFault, nil)
            case .threw:
                var failure = branches[index].mismatch(result, states[0], branches[index].trace)
                failure.message = "\(trace): \(concurrentBranchLabel(index)) \(failure.message)\n" + interleaving
                io.failure = failure
                return (.failed, nil)
            case .observed:
                break
            }
        }
        // A branch the cancellation reached is explained by its prediction or by what a cancelled call may leave.
        let operations = branches.indices.map { index in
            LinearOperation<M.Model>(explains: records[index].cancelled == nil
                                        ? { branches[index].allows(records[index].result!, &$0) }
                                        : { branches[index].allowsCancelled(records[index].result!, &$0) },
                                     started: records[index].started!, finished: records[index].finished!)
        }
        let checked = shared.linearizability.check(operations, from: states)
        guard checked.ends.isEmpty else { return (.passed, checked) }
        let results = records.map { $0.result! }
        let judges = branches.indices.map { index in
            records[index].cancelled == nil
                ? BranchJudge(allows: operations[index].explains,
                              mismatch: { branches[index].mismatch(results[index], $0, branches[index].trace) })
                : BranchJudge(allows: operations[index].explains,
                              mismatch: { branches[index].cancelledMismatch(results[index], $0, branches[index].trace) })
        }
        io.failure = unexplained(branches, results, judges, operations, checked, trace: trace, states: states,
                                 interleaving: branches.count > 1 || !run.picks.isEmpty || records.contains { $0.cancelled != nil } ? interleaving : nil)
        return (.failed, checked)
    }

    /// The failure of a step that no order explains, under the rule of the first difference in the order that
    /// explains the longest prefix (the first such order, trying branches in the order they began).
    ///
    /// A lone action's observation is a mismatch like a synchronous step's, its interleaving added when the
    /// scheduler had choices to make (`interleaving`).
    @usableFromInline
    func unexplained(_ branches: [PendingBranch<M>], _ results: [BranchResult], _ judges: [BranchJudge<M.Model>],
                             _ operations: [LinearOperation<M.Model>],
                             _ checked: Linearizability<M.Model>.Result, trace: TraceStep, states: [M.Model], interleaving: String?) -> Failure {
        let label = concurrentBranchLabel
        let closest = checked.closest!
        var failure = judges[closest.failing].mismatch(closest.model)
        guard branches.count > 1, let interleaving else {
            if let interleaving { failure.message = "\(trace): \(failure.message)\n" + interleaving }
            return failure
        }
        failure.kind = .linearizability
        let names = branches.indices.map(label)
        var lines = ["\(trace): no order of \(Self.list(names)) explains what they observed"]
        lines.append("  observed: " + branches.indices.map { "\(label($0)) → \(branches[$0].observed(results[$0]))" }.joined(separator: ", "))
        for b in operations.indices {
            for a in operations.indices where operations[a].finished < operations[b].started {
                lines.append("  \(label(a)) finished (#\(operations[a].finished)) before \(label(b)) started (#\(operations[b].started))")
            }
        }
        if states.count > 1 { lines.append("  from each of the \(states.count) states earlier concurrent steps may have left; the first:") }
        // Every order that respects real time, each with its first difference (a group of a few branches).
        let orders = Linearizability<M.Model>.admissibleOrders(operations)
        if orders.count <= 6 {
            for order in orders {
                var model = states[0]
                for index in order {
                    var next = model
                    if !judges[index].allows(&next) {
                        let miss = judges[index].mismatch(model)
                        lines.append("  in the order \(order.map(label).joined(separator: ", ")): \(label(index)) \(miss.message) [\(miss.rule)]")
                        break
                    }
                    model = next
                }
            }
        }
        let prefix = closest.prefix.map(label)
        lines.append("  the order that explains the most, \((prefix + [label(closest.failing)]).joined(separator: ", ")) …, explains "
                     + (prefix.isEmpty ? "no branch" : Self.list(prefix)) + "; rule \(failure.rule) decides \(label(closest.failing))")
        failure.message = lines.joined(separator: "\n") + "\n" + interleaving
        return failure
    }

    /// `A`, `A and B`, `A, B and C`.
    static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// The schedule drawn as lanes (`ScheduledRun.lanes`: a column per task, a row per job, each cell the function
    /// the task ran and the await it resumed from), indented; the last 40 jobs of a long one.
    @usableFromInline
    static func interleaving(_ run: ScheduledRun<Void>) -> String {
        let lanes = run.lanes
        guard let header = lanes.first else { return "  interleaving: no job ran" }
        let rows = lanes.dropFirst()
        let shown = rows.suffix(40)
        let head = shown.count < rows.count ? "  interleaving (the last \(shown.count) of \(rows.count) jobs):" : "  interleaving:"
        return ([head, "    " + header] + shown.map { "    " + $0 }).joined(separator: "\n")
    }

    // MARK: Traces and records

    /// The cancellation point of each branch the cancellation reached (0 for the others), trailing zeros left out:
    /// what a trace's `cancel: [0, 3]` replays.
    @usableFromInline
    static func cancellations(_ records: [BranchRecord<BranchResult>]) -> [Int] {
        var points = records.map { $0.cancelled == nil ? 0 : $0.cancelPoint }
        while points.last == 0 { points.removeLast() }
        return points
    }

    /// The step's trace: a lone branch run in FIFO order as its own, anything else as `concurrently(…)`.
    @usableFromInline
    func groupTrace(_ branches: [PendingBranch<M>], picks: [Int], cancels: [Int]) -> TraceStep {
        if branches.count == 1 && picks.isEmpty && cancels.isEmpty { return branches[0].trace }
        var arguments = branches.enumerated().map { TraceStep.Argument(concurrentBranchLabel($0), .step($1.trace)) }
        if !picks.isEmpty { arguments.append(TraceStep.Argument("schedule", .list(picks.map { .int($0) }))) }
        if !cancels.isEmpty { arguments.append(TraceStep.Argument("cancel", .list(cancels.map { .int($0) }))) }
        return TraceStep(Self.groupStepName, arguments)
    }

    /// The step's record: what the specification predicted for each branch, and in which order (`how`).
    @usableFromInline
    func groupRecord(_ branches: [PendingBranch<M>], picks: [Int], cancels: [Int], how: String, predicted: [WrittenPrediction]) -> RecordedStep {
        let trace = groupTrace(branches, picks: picks, cancels: cancels)
        if branches.count == 1 { return RecordedStep(trace: trace, value: predicted[0].value, rule: predicted[0].rule, swift: nil) }
        let labelled = branches.indices.map { "\(concurrentBranchLabel($0)) → \(predicted[$0].value) [\(predicted[$0].rule)]" }
        var record = RecordedStep(trace: trace, value: labelled.joined(separator: ", "), rule: "", swift: nil)
        record.written = "\(labelled.joined(separator: ", ")) (\(how))"
        return record
    }
}

@available(macOS 15.0, *)
extension Scheduler {
    /// `runConcurrently` over a concurrent step's branches: called from the step (inlined where the machine is
    /// known) into the engine, where the scheduler's run is specialised for `BranchResult`.
    @usableFromInline
    func runBranches(_ branches: [ScheduledBranch<BranchResult>]) -> (run: ScheduledRun<Void>, branches: [BranchRecord<BranchResult>]) {
        runConcurrently(branches)
    }
}

/// A concurrent step's branch labels: A, B, … Z, then A1, B1, ….
@usableFromInline
func concurrentBranchLabel(_ index: Int) -> String {
    let letter = String(UnicodeScalar(UInt8(65 + index % 26)))
    return index < 26 ? letter : letter + String(index / 26)
}

/// How one branch of a judged step is explained: whether a prediction allows what it observed (advancing the model),
/// and the failure when none does.
@usableFromInline
struct BranchJudge<Model> {
    @usableFromInline let allows: (inout Model) -> Bool
    @usableFromInline let mismatch: (Model) -> Failure

    @inlinable
    init(allows: @escaping (inout Model) -> Bool, mismatch: @escaping (Model) -> Failure) {
        self.allows = allows
        self.mismatch = mismatch
    }
}
