/// A search over one target (production code or a mutant), with the shrunk case described.
package struct TargetSearchResult: Sendable, Equatable {
    package var target: String
    package var mutant: String?
    package var options: SearchOptions
    package var maxSteps: Int
    /// The target's own steps per case (the report's reproduce line names `maxSteps` when it differs; nil:
    /// unknown, always named).
    package var defaultSteps: Int?
    package var search: SearchResult
    /// Steps run during the search (not counting shrinking).
    package var steps: Int
    /// Steps in the first failing case before shrinking.
    package var originalSteps: Int
    /// The shrunk failing case, re-run with its steps and expectations recorded.
    package var counterexample: CaseRecord?
    /// The rules the searched mutant declares it may break (empty for production code).
    package var declaredRules: [String]

    package var failure: FoundFailure? { search.failure }
    /// The harness fault that stopped the search (no verdict on the code under test), if any.
    package var harnessFault: CaseHarnessFault? { search.harnessFault }

    /// Whether a mutant's failure names a rule the mutant does not declare (a wrong verdict to explain).
    package var isMisattributed: Bool {
        guard mutant != nil, let rule = failure?.failure.rule, !declaredRules.isEmpty else { return false }
        return !declaredRules.contains(rule)
    }

    package init(target: String, mutant: String?, options: SearchOptions, maxSteps: Int, search: SearchResult, steps: Int,
                originalSteps: Int, counterexample: CaseRecord?, declaredRules: [String] = [], defaultSteps: Int? = nil) {
        self.declaredRules = declaredRules
        self.defaultSteps = defaultSteps
        self.target = target
        self.mutant = mutant
        self.options = options
        self.maxSteps = maxSteps
        self.search = search
        self.steps = steps
        self.originalSteps = originalSteps
        self.counterexample = counterexample
    }
}

/// One failure signature of a target's search, shrunk and described, with the number of cases
/// that failed with it.
package struct TargetFailure: Sendable, Equatable {
    package var result: TargetSearchResult
    package var caseCount: Int

    package init(result: TargetSearchResult, caseCount: Int) {
        self.result = result
        self.caseCount = caseCount
    }
}

/// A whole search of a target by the one search loop: every failure signature, and what the
/// cases exercised.
package struct TargetRun: Sendable, Equatable {
    package var target: String
    package var mutant: String?
    package var options: SearchOptions
    package var maxSteps: Int
    package var cases: Int
    package var rejected: Int
    package var steps: Int
    /// Search time (shrinking and re-running suspected cases excluded): what `--time` limits.
    package var seconds: Double
    /// Wall time of the whole search, shrinking and re-running suspected cases included: what the summary prints.
    package var wallSeconds: Double
    package var coverage: Coverage
    /// One per signature, in the order of their lowest failing case.
    package var found: [TargetFailure]
    /// Crash or hang signatures that did not come back when run again: not failures of the code.
    package var unconfirmed: [FailureSignature]
    /// The search was stopped early (`SearchEvents.stopRequested`).
    package var interrupted = false
}

extension Target {
    /// The rules `mutant` declares it may break (empty for production code or an unknown name).
    package func declaredRules(_ mutant: String?) -> [String] {
        mutant.flatMap { self.mutant(named: $0)?.rules } ?? []
    }

    /// Searches this target for the first failure with `options`, at most `maxSteps` steps per
    /// case, in this process (time to first failure; `run` goes on and groups every failure).
    package func search(mutant: String? = nil, options: SearchOptions, maxSteps: Int? = nil) -> TargetSearchResult {
        let maxSteps = maxSteps ?? defaultSteps
        let executor = LocalExecutor(machine: machine(mutant: mutant), maxSteps: maxSteps)
        // An in-process executor never throws; the loop throws only a harness fault.
        let loop: LoopResult
        do { loop = try SearchLoop(options: options, stopAtFirstFailure: true).run(executor) } catch {
            return TargetSearchResult(target: name, mutant: mutant, options: options, maxSteps: maxSteps,
                                      search: SearchResult(cases: 0, rejected: 0, seconds: 0, failure: nil,
                                                           harnessFault: (error as? CaseHarnessFault).map { named($0, mutant: mutant) }),
                                      steps: 0, originalSteps: 0, counterexample: nil, declaredRules: declaredRules(mutant))
        }
        guard let first = loop.found.first else {
            return TargetSearchResult(target: name, mutant: mutant, options: options, maxSteps: maxSteps,
                                      search: SearchResult(cases: loop.cases, rejected: loop.rejected, seconds: loop.seconds, failure: nil),
                                      steps: loop.steps, originalSteps: 0, counterexample: nil, declaredRules: declaredRules(mutant))
        }
        let progress = SearchProgress(cases: loop.cases, rejected: loop.rejected, steps: loop.steps, failures: loop.found.count,
                                      seconds: loop.seconds)
        var result = describe(first.failure, mutant: mutant, options: options, maxSteps: maxSteps, progress: progress, executor: executor)
        result.search.seconds = first.failure.seconds
        return result
    }

    /// Runs every case of `options` through `executor` (in this process unless given), groups the
    /// failures by signature and shrinks each once; `found` hears of each as soon as it is shrunk
    /// (while the search goes on), `events` of the rest (its `found` is replaced). Throws
    /// `CaseHarnessFault` (naming this target) when a case's harness could not do its work.
    package func run(mutant: String? = nil, options: SearchOptions, maxSteps: Int? = nil, executor: (any CaseExecutor)? = nil,
                    events: SearchEvents = SearchEvents(), found: @escaping (TargetFailure) -> Void = { _ in }) throws -> TargetRun {
        let maxSteps = maxSteps ?? defaultSteps
        let executor = executor ?? LocalExecutor(machine: machine(mutant: mutant), maxSteps: maxSteps)
        var described: [TargetFailure] = []
        var events = events
        events.found = { group, progress in
            let entry = TargetFailure(result: describe(group.failure, mutant: mutant, options: options, maxSteps: maxSteps, progress: progress,
                                                       executor: executor), caseCount: group.caseCount)
            described.append(entry)
            found(entry)
        }
        let loop: LoopResult
        do { loop = try SearchLoop(options: options, events: events).run(executor) } catch let fault as CaseHarnessFault {
            throw named(fault, mutant: mutant)
        }
        // The final counts of cases per signature.
        for (index, group) in loop.found.enumerated() where index < described.count { described[index].caseCount = group.caseCount }
        return TargetRun(target: name, mutant: mutant, options: options, maxSteps: maxSteps, cases: loop.cases, rejected: loop.rejected,
                         steps: loop.steps, seconds: loop.seconds, wallSeconds: loop.wallSeconds, coverage: loop.coverage, found: described, unconfirmed: loop.unconfirmed,
                         interrupted: loop.interrupted)
    }

    /// `fault` naming this target and `mutant`.
    private func named(_ fault: CaseHarnessFault, mutant: String?) -> CaseHarnessFault {
        var fault = fault
        fault.target = name
        fault.mutant = mutant
        return fault
    }

    /// The failure described: its shrunk case recorded, and the failure as the record tells it
    /// (a crash names the step it died at) when the record failed the same way.
    private func describe(_ failure: FoundFailure, mutant: String?, options: SearchOptions, maxSteps: Int, progress: SearchProgress,
                          executor: any CaseExecutor) -> TargetSearchResult {
        var failure = failure
        let record = executor.record(failure.shrunk)
        if let recorded = record?.outcome.failure, recorded.signature == failure.failure.signature { failure.failure = recorded }
        return TargetSearchResult(target: name, mutant: mutant, options: options, maxSteps: maxSteps,
                                  search: SearchResult(cases: progress.cases, rejected: progress.rejected, seconds: progress.seconds,
                                                       failure: failure),
                                  steps: progress.steps, originalSteps: executor.steps(failure.original), counterexample: record,
                                  declaredRules: declaredRules(mutant), defaultSteps: defaultSteps)
    }
}
