extension MachineRunner {
    /// Runs a search's chunk of cases — case `i` drawn from `SplitMix64.caseSeed(run: seed, case: i)`,
    /// exactly what `run(_:covers:)` draws for it — and adds up what they did; with
    /// `stopAtFirstFailure`, stops after the first failing case.
    ///
    /// Nobody reads a passing case's choices (a failing case is run again from its seed, recorded, to
    /// shrink it), so the cases share one draw that keeps no record, and one set of buffers: the
    /// chooser's, the arguments', and the coverage counts, kept per action and rule across the chunk
    /// and turned into a `Coverage` once at its end. `willRunCase` is told each case's index, with
    /// what the chunk did so far, before it runs (a worker process announces it to its parent).
    @inlinable
    func runChunk(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool, covers: Bool,
                  willRunCase: (Int, ChunkReport) -> Void = { _, _ in }) -> ChunkReport {
        let draw = Draw(unrecordedSeed: 0)
        var chooser = Chooser(actions: actions, counts: covers)
        var tally = Tally(actions: actions.count, counts: covers)
        var arguments = Arguments(.drawing(draw), nextRef: Ref(0), tracesCoded: false)
        var report = ChunkReport.collect(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure, willRun: willRunCase) { index in
            draw.restart(seed: SplitMix64.caseSeed(run: seed, case: index))
            let config = draw.span(.config) { machine.makeConfig(draw) }
            chooser.start(enabled: draw.span(.swarm) { swarm(draw) }, plan: plan)
            let (outcome, steps) = search(config: config, draw, &chooser, &arguments, &tally)
            return (outcome, steps, nil)
        }
        report.coverage = tally.coverage(actions, held: chooser.held, failed: chooser.failed)
        return report
    }

    /// Runs one case of a chunk: the same draws, in the same order, and the same outcome as
    /// `execute` with `nextStep` (`run(_:covers:)`), but each step is one call of its action's `step`,
    /// which keeps the command in its own type, and nothing of the step is kept once it passed. The
    /// draw keeps no record, so the `.step` and `.command` spans are left out.
    @inlinable
    func search(config: M.Config, _ draw: Draw, _ chooser: inout Chooser, _ arguments: inout Arguments,
                _ tally: inout Tally) -> (outcome: Outcome, steps: Int) {
        let covers = tally.counts
        if covers { tally.cases += 1 }
        return withCase(config) { model, system in
            // Read once per case: each read of the runner's shared arrays is a retain and a release.
            let actions = self.actions
            let tracesCoded = plan.tracesCodedInSearch
            let checksInvariants = !invariants.isEmpty
            var refs = 0
            for index in 0..<maxSteps {
                guard draw.chooseBool(probability: continueProbability) else { return (.pass, index) }
                chooser.begin(model)
                var excluded: [Int] = []
                while true {
                    guard let a = chooser.choose(model, excluded: excluded, draw) else { return (.pass, index) }
                    arguments.begin(nextRef: Ref(refs), tracesCoded: tracesCoded[a])
                    let outcome: Outcome?
                    switch actions[a].step(&arguments, &model, &system) {
                    case .noCommand:
                        excluded.append(a)
                        continue
                    case .rejected:
                        return (.rejected, index)
                    case .allowed(let predicted):
                        if covers { tally.count(predicted, of: a) }
                        if checksInvariants, var failure = checkInvariants(model, system, tally: &tally) {
                            failure.step = index
                            outcome = .fail(failure)
                        } else {
                            outcome = nil
                        }
                    case .unexpected(let predicted, let observed, let codedTrace):
                        if covers { tally.count(predicted, of: a) }
                        outcome = judge(predicted, observed, model, system, step: index, tally: &tally) {
                            codedTrace ?? TraceStep(actions[a].name, result: arguments.created, arguments.recorded)
                        }
                    }
                    if let outcome { return (outcome, index + 1) }
                    if arguments.created != nil { refs += 1 }
                    break
                }
            }
            return (.pass, maxSteps)
        }
    }
}
