/// What a campaign reports while it runs, in order; the command line prints these (text or JSON Lines), a check
/// records the failures as issues.
package enum CampaignEvent {
    /// A target (production code, or one of its mutants) is about to be searched.
    case searching(SearchPlan)
    /// The search so far, about every `Campaign.progressInterval` seconds.
    case progress(SearchRun)
    /// The next failure to report is known: its lowest failing case and how it failed, as soon as every case below
    /// it has run, before it is shrunk (the `failure` event follows), with the wall-clock seconds from the search's
    /// start. Told once for each failure reported, or reported as the same interleaving or unconfirmed.
    case found(SearchPlan, CaseFailure, seconds: Double)
    /// A failure, shrunk and described as soon as every case below its lowest failing case has run (while the
    /// search goes on), saved to `corpusFile` when the campaign saves. Its `caseCount` is the count so far.
    case failure(FoundFailure, corpusFile: String?)
    /// A failure could not be saved (why); the failure itself is reported next.
    case saveFailed(String)
    /// A failure whose shrunk case runs the same interleaving as the earlier failure of signature `as`: one bug, reported
    /// with that one (`FoundFailure.alsoBroken`), not saved.
    case sameInterleaving(FoundFailure, as: FailureSignature)
    /// A crash or hang whose lowest case did not fail the same way when run again to shrink it: no failure.
    case unconfirmed(SearchPlan, FailureGroups.Group)
    /// A target's search ended (it may have been interrupted): the search and its rules' coverage.
    case finished(SearchRun, CoverageReport)
}

/// The one pipeline from a seed to a report, for the command line, `GraphFuzzTest.check`, `bench` and a property's
/// search: for each selected target (production code or a mutant) it resolves the run's options into a
/// `SearchPlan`, searches (`SearchLoop`), and hands each failure signature, as soon as its lowest case is final, to
/// be shrunk (`Shrinker`), described (its shrunk case recorded), saved to the corpus and reported (`CampaignEvent`).
/// Cases run in this process, or through the executor `executor` makes (worker processes). It prints nothing, and
/// stops after a search that was interrupted (`stopRequested`).
package struct Campaign {
    /// The targets to search, each for production code (nil) or a named mutant, in order.
    package var selection: [(target: Target, mutant: String?)]
    /// The run's cases, budget and steps, the same for every target.
    package var options: SearchOptions
    /// The folder failures are saved to (nil: none are saved).
    package var corpus: String?
    /// Where a search's cases run: nil runs them in this process, its files in a scratch folder of the search's
    /// own (`graph-fuzz-SCRATCHNAME-…`, removed when it ends); else the executor this makes for the target and plan.
    package var executor: ((Target, SearchPlan) throws(RunError) -> any CaseExecutor)?
    /// The kind in the name of an in-process search's scratch folder.
    package var scratchName: String
    /// True once the campaign must stop (a signal, output that cannot be written).
    package var stopRequested: () -> Bool
    /// Seconds between progress events.
    package var progressInterval: Double

    package init(selection: [(target: Target, mutant: String?)], options: SearchOptions, corpus: String? = nil,
                 executor: ((Target, SearchPlan) throws(RunError) -> any CaseExecutor)? = nil, scratchName: String = "run",
                 stopRequested: @escaping () -> Bool = { false }, progressInterval: Double = 1) {
        self.selection = selection
        self.options = options
        self.corpus = corpus
        self.executor = executor
        self.scratchName = scratchName
        self.stopRequested = stopRequested
        self.progressInterval = progressInterval
    }

    /// Runs the searches, telling `event` what happens. Returns every search (the last one interrupted when the
    /// campaign was stopped). Throws when a search can give no verdict (`RunError`: a harness fault, workers that
    /// keep dying, no scratch folder): never a failure of the code under test.
    package func run(_ event: (CampaignEvent) -> Void) throws(RunError) -> [SearchRun] {
        var runs: [SearchRun] = []
        for (target, mutant) in selection {
            let plan = SearchPlan(target, mutant: mutant, options: options)
            event(.searching(plan))
            let run = try search(target, plan, event)
            event(.finished(run, CoverageReport(target: target.name, rules: target.rules, coverage: run.coverage, cases: run.cases,
                                                rejected: run.rejected)))
            runs.append(run)
            if run.interrupted { break }
        }
        return runs
    }

    /// Searches `target` as `plan` says, through the executor the campaign makes for it.
    private func search(_ target: Target, _ plan: SearchPlan, _ event: (CampaignEvent) -> Void) throws(RunError) -> SearchRun {
        if let make = executor { return try search(plan, executor: make(target, plan), target: target, event) }
        let scratchFolder: String
        do { scratchFolder = try ScratchFolder.make(for: scratchName) } catch { throw .scratchFolder(error) }
        defer { ScratchFolder.remove(scratchFolder) }
        let executor = LocalExecutor(machine: target.machine(mutant: plan.mutant, scratchFolder: scratchFolder), maxSteps: plan.maxSteps,
                                     stopAtFirstFailure: plan.options.stopAtFirstFailure)
        return try search(plan, executor: executor, target: target, event)
    }

    /// The pipeline over `executor`: search, then each failure shrunk, described, saved (with `target` and a corpus)
    /// and reported.
    package func search(_ plan: SearchPlan, executor: some CaseExecutor, target: Target?,
                        _ event: (CampaignEvent) -> Void) throws(RunError) -> SearchRun {
        try withoutActuallyEscaping(event) { event throws(RunError) in
            let loop = SearchLoop(plan: plan, stopRequested: stopRequested, progress: { event(.progress($0)) }, progressInterval: progressInterval)
            let tellFound = { (failing: CaseFailure, soFar: SearchRun) in event(.found(plan, failing, seconds: soFar.wallSeconds)) }
            return try loop.run(executor, found: tellFound) { group, soFar throws(RunError) in
                let started = ContinuousClock.now
                guard var found = try settle(group, plan, executor, event) else { return nil }
                // The wall clock from the search's start to now, when it is told.
                found.seconds = soFar.wallSeconds + (ContinuousClock.now - started).seconds
                if let earlier = soFar.failures.first(where: found.sharesInterleaving) {
                    found.sameInterleavingAs = earlier.failure.signature
                    event(.sameInterleaving(found, as: earlier.failure.signature))
                    return found
                }
                event(.failure(found, corpusFile: target.flatMap { save(found, target: $0, event) }))
                return found
            }
        }
    }

    /// Shrinks `group` from its lowest failing case and describes the shrunk case; nil when that case no longer fails
    /// the same way (told as `unconfirmed`). Each case runs once: the lowest case, each candidate, and the shrunk case
    /// recorded, which says how it fails. A harness fault in any of them stops the search (at the group's case). The
    /// executor shrinks where the case runs when it can (`runAndShrink`: a worker shrinks without a round trip per
    /// candidate); otherwise each candidate goes through `replay`.
    private func settle(_ group: FailureGroups.Group, _ plan: SearchPlan, _ executor: some CaseExecutor,
                        _ event: (CampaignEvent) -> Void) throws(RunError) -> FoundFailure? {
        func checked(_ result: CaseResult) throws(RunError) -> CaseResult {
            guard let fault = result.outcome.harnessFault else { return result }
            throw .harnessFault(plan.naming(CaseHarnessFault(seed: plan.seed, caseIndex: group.firstCase, fault: fault)))
        }
        let started = try executor.runAndShrink(case: group.firstCase, seed: plan.seed, signature: group.signature,
                                                budget: plan.options.shrinkBudget, stopRequested: stopRequested)
        let first = try checked(started.result)
        guard first.failure?.signature == group.signature else {
            event(.unconfirmed(plan, group))
            return nil
        }
        if let fault = started.candidateFault { _ = try checked(CaseResult(outcome: .harnessFault(fault))) }
        let shrink: ShrinkResult
        if let shrunk = started.shrink {
            shrink = shrunk
        } else {
            var thrown: RunError?
            let shrinker = Shrinker(signature: group.signature, budget: plan.options.shrinkBudget, stopRequested: stopRequested) { sequence in
                guard thrown == nil else { return CaseResult(outcome: .rejected) }
                do throws(RunError) { return try checked(executor.replay(sequence)) } catch {
                    thrown = error
                    return CaseResult(outcome: .rejected)
                }
            }
            shrink = shrinker.shrink(first.consumed.sequence, run: first)
            if let thrown { throw thrown }
        }
        let described = try checked(executor.describe(shrink.sequence))
        let failure = described.failure.flatMap { $0.signature == group.signature ? $0 : nil } ?? group.failure
        return FoundFailure(plan: plan, caseIndex: group.firstCase, original: first.consumed.sequence, originalSteps: first.steps,
                            shrunk: shrink.sequence, shrink: shrink, failure: failure, counterexample: described.record,
                            caseCount: group.count, seconds: 0)
    }

    /// Saves a found failure to the corpus, if the campaign saves: the file, or nil.
    private func save(_ found: FoundFailure, target: Target, _ event: (CampaignEvent) -> Void) -> String? {
        guard let corpus, let corpusCase = Corpus.makeCase(found, fingerprint: target.generatorFingerprint) else { return nil }
        do { return try Corpus.write(corpusCase, to: corpus) } catch {
            event(.saveFailed("\(error)"))
            return nil
        }
    }
}

extension Campaign {
    /// One target's search in this process that stops at its first failure (time to first failure: benchmarks, tests).
    package static func firstFailure(_ target: Target, mutant: String? = nil, options: SearchOptions) throws(RunError) -> SearchRun {
        var options = options
        options.stopAtFirstFailure = true
        return try Campaign(selection: [(target, mutant)], options: options).run { _ in }[0]
    }
}
