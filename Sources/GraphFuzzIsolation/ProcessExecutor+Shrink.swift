#if !GRAPHFUZZ_NO_PROCESSES
import GraphFuzzEngine

/// What the shrink of one failure group learned: the signature it keeps, the step each accepted
/// crashing or hanging sequence stopped at, and the candidates that timed out.
struct ShrinkState {
    var signature: FailureSignature?
    /// The group's failure came from a worker's death or timeout: its cases never run here.
    var diedInWorker = false
    var timedOut = 0
    var stopSteps: [ChoiceSequence: Int] = [:]
    var failures: [ChoiceSequence: Failure] = [:]
    /// The per-step timeout each accepted hanging sequence ran out of.
    var hangSeconds: [ChoiceSequence: Double] = [:]
    /// Sequences whose signature came back before the case's first step: not shrinkable, not described.
    var beforeFirstStep: Set<ChoiceSequence> = []
}

/// Shrinking in worker processes, for the search loop: every candidate runs in a worker, so a
/// candidate that crashes or hangs costs a worker, never the run. A candidate hangs when one of
/// its steps runs longer than `candidateTimeout` (the timeout is per step, so long candidates are
/// never hangs for their length alone). A crash or hang candidate is accepted only with the same
/// signature; the steps before the one that crashed or hung are then replayed in this process
/// (they passed in the worker) to learn what the case consumed and to describe it.
extension ProcessExecutor {
    /// Runs case `index` again to begin shrinking its group: in a worker when it crashed or hung
    /// there (with the longer timeout of a confirmation, so a loaded machine does not turn the
    /// crash into a timeout), in this process otherwise.
    package func run(case index: Int, seed: UInt64) throws -> (outcome: Outcome, draw: Draw) {
        let failure = caseFailures[index]
        shrinking = ShrinkState(signature: failure?.signature, diedInWorker: failure.map { $0.kind == .crash || $0.kind == .hang } ?? false)
        let draw = Draw(seed: SplitMix64.caseSeed(run: seed, case: index))
        guard shrinking.diedInWorker else { return (machine.run(draw, maxSteps).outcome, draw) }
        let answer = try client.run(.runCase(seed: seed, index: index), timeout: confirmStepTimeout, perStep: true)
        let outcome = interpret(answer, draw: draw)
        // Reproduced before the first step: reported as found, unshrunk and without steps.
        if let failure, shrinking.beforeFirstStep.contains(draw.sequence) { return (.fail(failure), draw) }
        return (outcome, draw)
    }

    package func replay(_ sequence: ChoiceSequence) throws -> (outcome: Outcome, draw: Draw) {
        let draw = Draw(replaying: sequence)
        if let failure = shrinking.failures[sequence], let step = shrinking.stopSteps[sequence] {
            // Accepted before: consumed up to its step here, not run in a worker again.
            _ = machine.recordPrefix(draw, maxSteps, stoppingAt: step)
            return (.fail(failure), draw)
        }
        guard shrinking.timedOut < ProcessExecutor.maxTimedOutCandidates else { return (.rejected, draw) }
        let answer = try client.run(.replay(sequence), timeout: candidateTimeout, perStep: true)
        return (interpret(answer, draw: draw), draw)
    }

    /// What a worker's answer stands for; `draw` then holds what the case consumed (the steps before a crash or
    /// hang are replayed here: they passed there). A candidate that finished in the worker, whatever its outcome,
    /// runs again here (it neither crashes nor hangs): the shrinker learns what every candidate consumed, as it
    /// does when candidates run in process, so a shrink makes the same candidates and attempts in every mode.
    private func interpret(_ answer: (run: WorkerRun, lastStep: Int?), draw: Draw) -> Outcome {
        let failure: Failure
        switch answer.run {
        case .finished:
            return machine.run(draw, maxSteps).outcome
        case .unreadable: return .rejected
        case .died(let termination, let trapMessage): failure = WorkerFailure.crash(termination, trapMessage: trapMessage)
        case .timedOut(let seconds):
            shrinking.timedOut += 1
            failure = WorkerFailure.hang(seconds: seconds)
        }
        guard failure.signature == shrinking.signature else { return .fail(failure) }
        guard let step = answer.lastStep else {  // died before its first step: not shrinkable
            shrinking.beforeFirstStep.insert(draw.sequence)
            return .rejected
        }
        _ = machine.recordPrefix(draw, maxSteps, stoppingAt: step)
        shrinking.stopSteps[draw.sequence] = step
        shrinking.failures[draw.sequence] = failure
        if case .timedOut(let seconds) = answer.run { shrinking.hangSeconds[draw.sequence] = seconds }
        return .fail(failure)
    }

    /// The shrunk case described: a crash or hang up to the step it stopped at (never run here),
    /// any other failure re-run in this process.
    package func record(_ sequence: ChoiceSequence) -> CaseRecord? {
        guard shrinking.diedInWorker else { return machine.record(sequence, maxSteps) }
        guard let step = shrinking.stopSteps[sequence], var failure = shrinking.failures[sequence] else { return nil }
        var record = machine.recordPrefix(Draw(replaying: sequence), maxSteps, stoppingAt: step)
        guard let last = record.steps.indices.last else { return nil }
        let what = failure.kind == .crash ? "crashed: \(failure.message)"
            : "did not finish within \(Format.seconds(shrinking.hangSeconds[sequence] ?? candidateTimeout)) (killed)"
        failure.message = "step \(last + 1) \(record.steps[last]) \(what); the specification expected \(record.expectations[last])"
        failure.step = last
        record.outcome = .fail(failure)
        return record
    }

    package func steps(_ sequence: ChoiceSequence) -> Int {
        guard shrinking.diedInWorker else { return machine.run(Draw(replaying: sequence), maxSteps).steps }
        return shrinking.stopSteps[sequence].map { $0 + 1 } ?? 0
    }
}
#endif
