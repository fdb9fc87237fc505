/// What a campaign reports while it runs, in order; the command line prints these (text or JSON Lines).
package enum CampaignEvent {
    /// A target (production code, or one of its mutants) is about to be searched.
    case searching(Target, mutant: String?)
    /// The search so far, about every `Campaign.progressInterval` seconds.
    case progress(Target, mutant: String?, SearchProgress)
    /// A failure, shrunk and described as soon as every case below its lowest failing case has run (while the
    /// search goes on), saved to `corpusFile` when the campaign saves.
    case failure(TargetFailure, corpusFile: String?)
    /// A failure could not be saved (why); the failure itself is reported next.
    case saveFailed(String)
    /// A crash or hang whose lowest case did not fail the same way when run again to shrink it: no failure.
    case unconfirmed(Target, FailureGroups.Group)
    /// A target's search ended (it may have been interrupted): its run and its rules' coverage.
    case finished(TargetRun, CoverageReport)
}

/// A run of `graph-fuzz`: every selected target and mutant searched in turn with the one search loop, in this
/// process or through the executor the caller gives, each failure shrunk, described and saved to the corpus as
/// soon as it is final, each search's coverage read against its target's rules. It reports by events and prints
/// nothing; it stops after a search that was interrupted (`stopRequested`).
package struct Campaign {
    /// The targets to search, each for production code (nil) or a named mutant, in order.
    package var selection: [(target: Target, mutant: String?)]
    /// The run's seed, cases (from `firstCase`), time limit and shard, the same for every target.
    package var options: SearchOptions
    /// Most steps per case (nil: each target's own).
    package var maxSteps: Int?
    /// The folder failures are saved to (nil: none are saved).
    package var corpus: String?
    /// Where a target's cases run: nil runs them in this process, its files in a scratch folder of the search's
    /// own (removed when it ends).
    package var executor: ((_ target: Target, _ mutant: String?, _ maxSteps: Int) throws -> any CaseExecutor)?
    /// True once the campaign must stop (a signal, output that cannot be written).
    package var stopRequested: () -> Bool
    /// Seconds between progress events.
    package var progressInterval: Double

    package init(selection: [(target: Target, mutant: String?)], options: SearchOptions, maxSteps: Int? = nil, corpus: String? = nil,
                 executor: ((_ target: Target, _ mutant: String?, _ maxSteps: Int) throws -> any CaseExecutor)? = nil,
                 stopRequested: @escaping () -> Bool = { false }, progressInterval: Double = 1) {
        self.selection = selection
        self.options = options
        self.maxSteps = maxSteps
        self.corpus = corpus
        self.executor = executor
        self.stopRequested = stopRequested
        self.progressInterval = progressInterval
    }

    /// Runs the searches, telling `event` what happens. Returns every search's run (the last one interrupted
    /// when the campaign was stopped). Throws `CaseHarnessFault` (naming the target) when a case's harness could
    /// not do its work, and what the executor throws (no verdict on the code under test either way).
    package func run(_ event: (CampaignEvent) -> Void) throws -> [TargetRun] {
        var runs: [TargetRun] = []
        for (target, mutant) in selection {
            event(.searching(target, mutant: mutant))
            let run = try search(target, mutant: mutant, event)
            event(.finished(run, CoverageReport(target: target.name, rules: target.rules, coverage: run.coverage, cases: run.cases,
                                                rejected: run.rejected)))
            runs.append(run)
            if run.interrupted { break }
        }
        return runs
    }

    private func search(_ target: Target, mutant: String?, _ event: (CampaignEvent) -> Void) throws -> TargetRun {
        let maxSteps = self.maxSteps ?? target.defaultSteps
        let executor: any CaseExecutor
        var scratchFolder: String?
        defer { scratchFolder.map(ScratchFolder.remove) }
        if let make = self.executor {
            executor = try make(target, mutant, maxSteps)
        } else {
            scratchFolder = try ScratchFolder.make(for: "run")
            executor = LocalExecutor(machine: target.machine(mutant: mutant, scratchFolder: scratchFolder), maxSteps: maxSteps)
        }
        return try withoutActuallyEscaping(event) { event in
            var events = SearchEvents(progressInterval: progressInterval, stopRequested: stopRequested)
            events.progress = { event(.progress(target, mutant: mutant, $0)) }
            events.unconfirmed = { event(.unconfirmed(target, $0)) }
            return try target.run(mutant: mutant, options: options, maxSteps: maxSteps, executor: executor, events: events) { found in
                event(.failure(found, corpusFile: save(found, target: target, event)))
            }
        }
    }

    /// Saves a found failure to the corpus, if the campaign saves: the file, or nil.
    private func save(_ found: TargetFailure, target: Target, _ event: (CampaignEvent) -> Void) -> String? {
        guard let corpus, let corpusCase = Corpus.makeCase(found.result, target: target) else { return nil }
        do { return try Corpus.write(corpusCase, to: corpus) } catch {
            event(.saveFailed("\(error)"))
            return nil
        }
    }
}
