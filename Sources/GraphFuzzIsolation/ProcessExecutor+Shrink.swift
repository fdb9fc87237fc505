#if !GRAPHFUZZ_NO_PROCESSES
import GraphFuzzEngine

/// The requests a `ProcessExecutor` sent, by kind: each is one run of one case in a worker.
package struct RequestCounts: Equatable, Sendable {
    /// Cases sent in batches (the search's).
    package var cases = 0
    /// Cases run alone to begin a shrink (a group's lowest failing case).
    package var firstRuns = 0
    /// Shrink candidates: one request each, or all of a shrink in the worker that ran its first case (`shrinks`).
    package var candidates = 0
    /// Failures shrunk in a worker: by the search worker that met them, in its batch, or by one that ran the lowest
    /// case again for it (`WorkerRequest.shrink`, which counts in `firstRuns`).
    package var shrinks = 0
    /// Shrinks in a worker that a candidate ended (the worker died, or sent no heartbeat in time), made again
    /// candidate by candidate.
    package var shrinksHandedBack = 0
    /// Shrunk cases run recorded, to describe them.
    package var descriptions = 0
    /// Suspected cases run again in a fresh worker after a death or a timeout.
    package var confirms = 0

    package init() {}
}

/// A failure a worker shrank where its batch ran it (`WorkerServer.shrinkInBatch`): the case's steps and all it
/// consumed, the shrink, and the shrunk case's record (its outcome the described one).
struct BatchShrink {
    var index: Int
    var steps: Int
    var consumed: Consumed
    var shrink: ShrinkResult
    var record: CaseRecord
}

/// What the shrink of one failure group learned: the signature it keeps, and the candidates that crashed or hung with
/// it (what each consumed up to the step it died at, and that step), and how many timed out.
struct ShrinkState {
    var signature: FailureSignature?
    /// The group's failure came from a worker's death or timeout.
    var diedInWorker = false
    var timedOut = 0
    /// Candidates accepted before that crashed or hung: what each told, and the step it died at.
    var died: [ChoiceSequence: (result: CaseResult, step: Int)] = [:]
    /// The per-step timeout each accepted hanging sequence ran out of.
    var hangSeconds: [ChoiceSequence: Double] = [:]
}

/// Shrinking in worker processes, for the pipeline (`Campaign`): the group's lowest case, every candidate and the
/// shrunk case's description run in a worker, so a candidate that crashes or hangs costs a worker, never the run, and
/// each runs once: a worker answers with what the case consumed (`WorkerRequest`), up to the step it died at for one
/// that crashed or hung. A candidate hangs when one of its steps runs longer than `candidateTimeout` (the timeout is
/// per step, so long candidates are never hangs for their length alone). A crash or hang candidate is accepted only
/// with the same signature. The shrinker sees what every candidate consumed, as in process, so a shrink makes the same
/// candidates and attempts in every mode.
extension ProcessExecutor {
    /// Runs case `index` again to begin shrinking its group, with the longer timeout of a confirmation (so a loaded
    /// machine does not turn a crash into a timeout).
    package func run(case index: Int, seed: UInt64) throws(RunError) -> CaseResult {
        let failure = caseFailures[index]
        shrinking = ShrinkState(signature: failure?.signature, diedInWorker: failure.map { $0.kind == .crash || $0.kind == .hang } ?? false)
        requests.firstRuns += 1
        let answer: WorkerAnswer
        do { answer = try client.run(.runCase(seed: seed, index: index), timeout: confirmStepTimeout, perStep: true) } catch { throw error.runError }
        let result = interpret(answer)
        // Died again before its first step: reported as found, unshrunk and without steps.
        if let failure, answer.lastStep == nil, answer.run.ended, result.outcome == .rejected { return CaseResult(outcome: .fail(failure)) }
        return result
    }

    /// Settles case `index` from the shrink its search worker made in its batch (nothing runs again), or runs it again
    /// and, unless its failure took a worker down, has that worker shrink it too (`WorkerRequest.shrink`): the same
    /// candidates as one by one, without a round trip each. A candidate that crashes or hangs there (its worker dies,
    /// or sends no heartbeat for `candidateTimeout`) leaves the shrink to the caller, from the case run here,
    /// candidate by candidate.
    package func runAndShrink(case index: Int, seed: UInt64, signature: FailureSignature, budget: ShrinkBudget,
                              stopRequested: () -> Bool) throws(RunError) -> FirstRun {
        guard shrinksInWorker, let failure = caseFailures[index], failure.kind != .crash, failure.kind != .hang else {
            return FirstRun(result: try run(case: index, seed: seed))
        }
        if let shrunk = batchShrinks.removeValue(forKey: index), failure.signature == signature {
            // Shrunk where the search ran it: nothing runs again.
            shrinking = ShrinkState(signature: failure.signature, diedInWorker: false)
            batchDescription = (shrunk.shrink.sequence, CaseResult(outcome: shrunk.record.outcome, record: shrunk.record))
            requests.shrinks += 1
            requests.candidates += shrunk.shrink.attempts
            return FirstRun(result: CaseResult(outcome: .fail(failure), steps: shrunk.steps, consumed: shrunk.consumed), shrink: shrunk.shrink)
        }
        shrinking = ShrinkState(signature: failure.signature, diedInWorker: false)
        requests.firstRuns += 1
        do {
            let answer = try client.run(.shrink(seed: seed, index: index, signature: signature, budget: budget), timeout: confirmStepTimeout,
                                        perStep: true)
            let result = interpret(answer)
            guard case .finished = answer.run, result.failure?.signature == signature else { return FirstRun(result: result) }
            guard let (shrink, fault) = try client.shrinkAnswer(timeout: candidateTimeout, stopRequested: stopRequested) else {
                requests.shrinksHandedBack += 1
                return FirstRun(result: result)
            }
            requests.shrinks += 1
            requests.candidates += shrink.attempts
            return FirstRun(result: result, shrink: shrink, candidateFault: fault?.harnessFault)
        } catch {
            throw error.runError
        }
    }

    package func replay(_ sequence: ChoiceSequence) throws(RunError) -> CaseResult {
        // Accepted before (it crashed or hung): known, not run in a worker again.
        if let known = shrinking.died[sequence] { return known.result }
        guard shrinking.timedOut < ProcessExecutor.maxTimedOutCandidates else { return CaseResult(outcome: .rejected) }
        requests.candidates += 1
        do { return interpret(try client.run(.replay(sequence), timeout: candidateTimeout, perStep: true)) } catch { throw error.runError }
    }

    /// What a worker's answer stands for: a finished case as it told it; a case that died or hung, a crash or hang
    /// failure with what it consumed up to the step it died at.
    private func interpret(_ answer: WorkerAnswer) -> CaseResult {
        let failure: Failure
        switch answer.run {
        case .finished(let result): return result
        case .unreadable: return CaseResult(outcome: .rejected)
        case .died(let termination, let trapMessage): failure = WorkerFailure.crash(termination, trapMessage: trapMessage)
        case .timedOut(let seconds):
            shrinking.timedOut += 1
            failure = WorkerFailure.hang(seconds: seconds)
        }
        // Another crash or hang: no more is known of it. The same one before its first step: not shrinkable.
        guard failure.signature == shrinking.signature else { return CaseResult(outcome: .fail(failure)) }
        guard let step = answer.lastStep else { return CaseResult(outcome: .rejected) }
        let result = CaseResult(outcome: .fail(failure), steps: step + 1, consumed: answer.consumed)
        shrinking.died[answer.consumed.sequence] = (result, step)
        if case .timedOut(let seconds) = answer.run { shrinking.hangSeconds[answer.consumed.sequence] = seconds }
        return result
    }

    /// The shrunk case described in a worker: recorded; a crash or hang up to the step it stopped at, which is
    /// predicted but not run, its failure naming that step.
    package func describe(_ sequence: ChoiceSequence) throws(RunError) -> CaseResult {
        if let described = batchDescription, described.sequence == sequence {
            batchDescription = nil
            return described.result
        }
        batchDescription = nil
        let died = shrinking.diedInWorker ? shrinking.died[sequence] : nil
        if shrinking.diedInWorker && died == nil { return CaseResult(outcome: .rejected) }
        requests.descriptions += 1
        let answer: WorkerAnswer
        do { answer = try client.run(.describe(sequence, stoppingAt: died?.step), timeout: confirmStepTimeout, perStep: true) } catch {
            throw error.runError
        }
        guard case .finished(var result) = answer.run else { return CaseResult(outcome: .rejected) }
        guard let died, case .fail(var failure) = died.result.outcome else { return result }
        guard var record = result.record, let last = record.steps.indices.last else { return CaseResult(outcome: .rejected) }
        let what = failure.kind == .crash ? "crashed: \(failure.message)"
            : "did not finish within \(Format.seconds(shrinking.hangSeconds[sequence] ?? candidateTimeout)) (killed)"
        failure.message = "step \(last + 1) \(record.steps[last]) \(what); the specification expected \(record.expectations[last])"
        failure.step = last
        record.outcome = .fail(failure)
        result.outcome = .fail(failure)
        result.record = record
        return result
    }
}
#endif
