import GraphFuzzEngine

/// Shrinking in worker processes: every candidate runs in a worker, so a candidate that crashes
/// or hangs costs a worker, never the run. A candidate hangs when one of its steps runs longer
/// than `candidateTimeout` (the timeout is per step, so long candidates are never hangs for
/// their length alone); once the run is interrupted, no new candidate runs. A crash or hang candidate is accepted only with the
/// same signature; the steps before the one that crashed or hung are then replayed in this
/// process (they passed in the worker) to learn what the case consumed and to describe it.
extension WorkerSearch {
    struct Shrunk {
        var original: ChoiceSequence
        var originalSteps: Int
        var shrink: ShrinkResult
        var failure: Failure
        var record: CaseRecord?
    }

    /// Shrinks one group from its lowest failing case, running every candidate in a worker.
    /// Nil when a crash or hang no longer happens when its case runs again: it was confirmed once,
    /// but a failure that does not come back is not reported.
    func shrink(_ group: FailureGroups.Group, machine: AnyMachine, client: WorkerClient) throws(WorkerError) -> Shrunk? {
        let signature = group.signature
        let diedInWorker = signature.kind == .crash || signature.kind == .hang
        let timeout = candidateTimeout
        var timedOut = 0
        /// The step each accepted crashing or hanging sequence stopped at.
        var stopSteps: [ChoiceSequence: Int] = [:]
        var workerError: WorkerError?
        /// The signature came back, but before the case's first step.
        var reproducedBeforeFirstStep = false

        /// What a worker's answer stands for, and the draw holding what the case consumed when it
        /// failed with the signature (the steps before a crash are replayed here: they passed there).
        func interpret(_ answer: (run: WorkerRun, lastStep: Int?), draw: Draw) -> Outcome {
            let failure: Failure
            switch answer.run {
            case .finished(let outcome):
                guard outcome.failure?.signature == signature else { return outcome }
                return machine.run(draw, maxSteps).outcome
            case .unreadable: return .rejected
            case .died(let termination, let trapMessage): failure = WorkerFailure.crash(termination, trapMessage: trapMessage)
            case .timedOut(let seconds):
                timedOut += 1
                failure = WorkerFailure.hang(seconds: seconds)
            }
            guard failure.signature == signature else { return .fail(failure) }
            guard let step = answer.lastStep else {  // died before its first step: not shrinkable
                reproducedBeforeFirstStep = true
                return .rejected
            }
            _ = machine.recordPrefix(draw, maxSteps, step)
            stopSteps[draw.sequence] = step
            return .fail(failure)
        }

        // The original case, as consumed.
        let original = Draw(seed: SplitMix64.caseSeed(run: options.seed, case: group.firstCase))
        let first: Outcome
        if diedInWorker {
            first = interpret(try client.run("w \(group.firstCase)", timeout: timeout, perStep: true), draw: original)
        } else {
            first = machine.run(original, maxSteps).outcome
        }
        if diedInWorker && first.failure?.signature != signature && !reproducedBeforeFirstStep { return nil }
        guard first.failure?.signature == signature else {
            // A crash or hang before the first step: reported as found, unshrunk and without steps.
            let shrink = ShrinkResult(sequence: original.sequence, attempts: 1, improvements: 0, budgetExhausted: false, passes: [])
            return Shrunk(original: original.sequence, originalSteps: 0, shrink: shrink, failure: group.failure, record: nil)
        }
        let originalSteps = diedInWorker ? stopSteps[original.sequence].map { $0 + 1 } ?? 0 : machine.run(Draw(replaying: original.sequence), maxSteps).steps

        let shrinker = Shrinker(signature: signature, budget: options.shrinkBudget, candidates: { sequence in
            let draw = Draw(replaying: sequence)
            guard workerError == nil, timedOut < WorkerSearch.maxTimedOutCandidates, !events.stopRequested() else { return (.rejected, draw) }
            do throws(WorkerError) {
                let answer = try client.run("r \(sequence)", timeout: candidateTimeout, perStep: true)
                return (interpret(answer, draw: draw), draw)
            } catch {
                workerError = error
                return (.rejected, draw)
            }
        })
        let shrink = shrinker.shrink(original.sequence)
        if let workerError { throw workerError }

        guard diedInWorker else {
            let record = machine.record(shrink.sequence, maxSteps)
            return Shrunk(original: original.sequence, originalSteps: originalSteps, shrink: shrink,
                          failure: record.outcome.failure ?? group.failure, record: record)
        }
        // Every accepted sequence has its step; described without running that step here.
        guard let step = stopSteps[shrink.sequence] else {
            return Shrunk(original: original.sequence, originalSteps: originalSteps, shrink: shrink, failure: group.failure, record: nil)
        }
        var record = machine.recordPrefix(Draw(replaying: shrink.sequence), maxSteps, step)
        var failure = group.failure
        let last = record.steps.count - 1
        let what = signature.kind == .crash ? "crashed: \(failure.message)" : "did not finish within \(Format.seconds(timeout)) (killed)"
        failure.message = "step \(last + 1) \(record.steps[last]) \(what); the specification expected \(record.expectations[last])"
        failure.step = last
        record.outcome = .fail(failure)
        return Shrunk(original: original.sequence, originalSteps: originalSteps, shrink: shrink, failure: failure, record: record)
    }
}
