import Foundation
import GraphFuzzEngine

/// `graph-fuzz [flags]`: search each selected target, shrink and report failures, save them.
struct RunCommand {
    var arguments: RunArguments
    var registry: Registry
    var console: Console
    /// The executable workers run; nil runs in this process (as `--in-process`).
    var workerExecutable: String?

    func execute(defaultSeed: () -> UInt64) throws(UsageError) -> Int32 {
        let selected = try selection()
        if arguments.save {
            // Found now, not after the whole search: a corpus that cannot take the cases.
            do { try FileIO.checkWritableFolder(arguments.corpus) } catch {
                throw UsageError("--corpus: \(error) (use another --corpus, or --no-save)")
            }
        }
        let seed = arguments.seed ?? defaultSeed()
        if !arguments.json { console.out("graph-fuzz: seed \(seed)\n") }
        let progress = ProgressLine(console: console, enabled: !arguments.quiet && (console.isTerminal || arguments.progress),
                                    rewrite: console.isTerminal)
        var rows = [["target", "mutant", "cases", "steps", "result", "time"]]
        var failures = 0
        var interrupted = false
        /// The rare and never-exercised rules and health warnings, printed after the table.
        var coverageLines: [String] = []
        for (target, mutant) in selected {
            if console.isTerminal && !arguments.quiet && !arguments.json {
                let cases = arguments.caseIndex.map { "case \($0)" } ?? "\(arguments.runs) cases"
                console.err("… \(target.name)\(mutant.map { " (\($0))" } ?? ""): \(cases)\n")
            }
            // `--case N`: case N alone, generated as in any run of the seed.
            let options = SearchOptions(seed: seed, runs: arguments.caseIndex.map { $0 + 1 } ?? arguments.runs, timeLimit: arguments.time,
                                        shardIndex: arguments.shard.index - 1, shardCount: arguments.shard.count,
                                        firstCase: arguments.caseIndex ?? 0)
            let run: TargetRun
            do { run = try search(target, mutant: mutant, options: options, progress: progress) } catch {
                progress.clear()
                if error.usage {
                    console.err("graph-fuzz: \(error.message)\n")
                    return 2
                }
                let named = error.message.hasPrefix("infrastructure error") || error.message.hasPrefix("harness fault")
                console.err("graph-fuzz: \(named ? "" : "internal error: ")\(error.message)\n")
                return 3
            }
            progress.clear()
            failures += run.found.count
            let seconds = run.seconds
            let rate = seconds > 0 ? Double(run.steps) / seconds : 0
            do {
                let report = CoverageReport(target: target.name, rules: target.rules, coverage: run.coverage, cases: run.cases,
                                            rejected: run.rejected)
                // One case (`--case`) says nothing of how often a rule is exercised.
                if arguments.caseIndex == nil { coverageLines += report.summaryLines }
                if arguments.json {
                    for row in report.rows {
                        console.out(JSONValue.object([
                            ("event", .string("coverage")), ("target", .string(target.name)), ("rule", .string(row.rule)),
                            ("decided", .int(row.decided)), ("cases", .int(run.cases)),
                        ]).rendered + "\n")
                    }
                }
            }
            // The target's last event is its summary: a consumer has every coverage event of the target when it reads it.
            if arguments.json {
                console.out(JSONValue.object([
                    ("event", .string("summary")), ("target", .string(target.name)), ("mutant", .optional(mutant)),
                    ("seed", .uint(seed)), ("cases", .int(run.cases)), ("steps", .int(run.steps)),
                    ("seconds", .double(seconds)), ("stepsPerSecond", .double(rate.rounded())),
                    ("failures", .int(run.found.count)),
                ]).rendered + "\n")
            }
            let rules = run.found.compactMap { found in
                found.result.failure.map { "\($0.failure.rule) \($0.failure.kind.rawValue) ×\(found.caseCount)" }
            }.joined(separator: ", ")
            rows.append([target.name, mutant ?? "-", String(run.cases), String(run.steps),
                         (run.found.isEmpty ? "pass" : "FAIL \(rules)") + (run.interrupted ? " (interrupted)" : ""),
                         "\(Format.seconds(seconds)) (\(Int(rate))/s)"])
            if run.interrupted {
                interrupted = true
                break
            }
        }
        if !arguments.json {
            console.out("\n" + Format.table(rows))
            if rows.contains(where: { $0[4].contains(" ×") }) {
                console.out("(×N: the number of cases of the run that failed with that signature)\n")
            }
            if !coverageLines.isEmpty { console.out("\n" + coverageLines.joined(separator: "\n") + "\n") }
        }
        if interrupted && Interruption.signal == nil {
            // Stopped because the output could not be written: `GraphFuzzCommand` says so, exit 3.
            return 3
        }
        if interrupted {
            console.err("graph-fuzz: interrupted by \(Interruption.signal == SIGTERM ? "SIGTERM" : "SIGINT"): workers stopped, the summary above is the run so far\n")
            return Interruption.exitCode
        }
        return failures > 0 ? 1 : 0
    }

    /// Saves a shrunk failure (unless --no-save) and prints it, as soon as it is found.
    private func report(_ result: TargetSearchResult, target: Target, progress: ProgressLine) {
        var corpusFile: String?
        progress.clear()
        if arguments.save, let corpusCase = Corpus.makeCase(result, target: target) {
            do { corpusFile = try Corpus.write(corpusCase, to: arguments.corpus) } catch {
                console.err("graph-fuzz: could not save the case: \(error)\n")
            }
        }
        emitFailure(FailureReport(result: result, corpusFile: corpusFile))
    }

    /// Searches with the one search loop, in worker processes, or in this process with
    /// `--in-process` (or no executable); each failure is saved and printed as soon as it is shrunk.
    private func search(_ target: Target, mutant: String?, options: SearchOptions, progress: ProgressLine) throws(WorkerError) -> TargetRun {
        let maxSteps = arguments.steps ?? target.defaultSteps
        var events = SearchEvents()
        // A signal or output that cannot be written stops the search.
        events.stopRequested = { Interruption.signal != nil || console.writeFailure() != nil }
        let executor: any CaseExecutor
        // The executable stops at SIGINT and SIGTERM (in process between chunks of cases); a command run inside
        // another program (a test) leaves that program's signals alone.
        if workerExecutable != nil { Interruption.install() }
        var scratchFolder: String?
        defer { scratchFolder.map(ScratchFolder.remove) }
        if let workerExecutable, !arguments.inProcess {
            let budget: WorkerBudget
            do { budget = try WorkerBudget.current(requested: arguments.jobs) } catch { throw WorkerError(message: error.message, usage: true) }
            if let note = budget.note { console.err("graph-fuzz: note: \(note)\n") }
            let note: (String) -> Void = { text in
                progress.clear()
                console.err("graph-fuzz: note: \(text)\n")
            }
            executor = WorkerExecutor(target: target, mutant: mutant, seed: options.seed, maxSteps: maxSteps, workers: budget.jobs,
                                      caseTimeout: arguments.caseTimeout, executable: workerExecutable, note: note)
            events.progress = { snapshot in progress.show(target: target.name, mutant: mutant, runs: options.runs - options.firstCase, snapshot) }
            events.progressInterval = progress.interval
            events.unconfirmed = { group in
                note("the \(group.failure.kind.rawValue) of case \(group.firstCase) of \(target.name) did not happen again when the case "
                    + "was run once more to shrink it: not reported as a failure of the code under test")
            }
        } else {
            // The machine's files go in a folder of the run's own, removed when the search ends.
            scratchFolder = try ScratchFolder.make(for: "run")
            executor = LocalExecutor(machine: target.machine(mutant: mutant, scratchFolder: scratchFolder), maxSteps: maxSteps)
        }
        do {
            return try target.run(mutant: mutant, options: options, maxSteps: maxSteps, executor: executor, events: events) { found in
                report(found.result, target: target, progress: progress)
            }
        } catch { throw WorkerError.from(error) }
    }

    /// The (target, mutant) pairs to run.
    private func selection() throws(UsageError) -> [(Target, String?)] {
        let names = registry.targets.map(\.name).joined(separator: ", ")
        if let mutant = arguments.mutant {
            let owners = registry.targets.filter { $0.mutant(named: mutant) != nil }
            guard let owner = owners.first else {
                let all = registry.targets.flatMap { $0.mutants.map(\.name) }.joined(separator: ", ")
                throw UsageError("--mutant: unknown mutant '\(mutant)' (known: \(all))")
            }
            if arguments.target != "all" && arguments.target != owner.name {
                guard registry.target(named: arguments.target) != nil else { throw UsageError("--target: unknown target '\(arguments.target)' (known: \(names), all)") }
                throw UsageError("--mutant: '\(mutant)' belongs to target '\(owner.name)', not '\(arguments.target)'")
            }
            return [(owner, mutant)]
        }
        if arguments.target == "all" { return registry.targets.map { ($0, nil) } }
        guard let target = registry.target(named: arguments.target) else {
            throw UsageError("--target: unknown target '\(arguments.target)' (known: \(names), all)")
        }
        return [(target, nil)]
    }

    private func emitFailure(_ report: FailureReport) {
        guard let found = report.result.failure else { return }
        if arguments.json {
            console.out(JSONValue.object([
                ("event", .string("failure")), ("target", .string(report.result.target)), ("mutant", .optional(report.result.mutant)),
                ("seed", .uint(report.result.options.seed)), ("case", .int(found.caseIndex)), ("rule", .string(found.failure.rule)),
                ("kind", .string(found.failure.kind.rawValue)), ("message", .string(found.failure.message)),
                ("steps", .int(report.result.counterexample?.steps.count ?? 0)), ("originalSteps", .int(report.result.originalSteps)),
                ("shrinkAttempts", .int(found.shrink.attempts)), ("secondsToFailure", .double(found.seconds)),
                ("counterexample", .array(report.stepLines.map(JSONValue.string))), ("swift", .string(report.swiftTest)),
                ("corpusFile", .optional(report.corpusFile)),
            ]).rendered + "\n")
        } else {
            console.out("\n" + report.text)
        }
    }
}
