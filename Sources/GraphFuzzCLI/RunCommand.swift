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
                console.err("… \(target.name)\(mutant.map { " (\($0))" } ?? ""): \(arguments.runs) cases\n")
            }
            let options = SearchOptions(seed: seed, runs: arguments.runs, timeLimit: arguments.time,
                                        shardIndex: arguments.shard.index - 1, shardCount: arguments.shard.count)
            let run: TargetRun
            do { run = try search(target, mutant: mutant, options: options, progress: progress) } catch {
                progress.clear()
                if error.usage {
                    console.err("graph-fuzz: \(error.message)\n")
                    return 2
                }
                console.err("graph-fuzz: \(error.message.hasPrefix("infrastructure error") ? "" : "internal error: ")\(error.message)\n")
                return 3
            }
            progress.clear()
            failures += run.found.count
            let seconds = run.seconds
            let rate = seconds > 0 ? Double(run.steps) / seconds : 0
            if arguments.json {
                console.out(JSONValue.object([
                    ("event", .string("summary")), ("target", .string(target.name)), ("mutant", .optional(mutant)),
                    ("seed", .uint(seed)), ("cases", .int(run.cases)), ("steps", .int(run.steps)),
                    ("seconds", .double(seconds)), ("stepsPerSecond", .double(rate.rounded())),
                    ("failures", .int(run.found.count)),
                ]).rendered + "\n")
            }
            if let coverage = run.coverage {
                let report = CoverageReport(target: target.name, rules: target.rules, coverage: coverage, cases: run.cases,
                                            rejected: run.rejected)
                coverageLines += report.summaryLines
                if arguments.json {
                    for row in report.rows {
                        console.out(JSONValue.object([
                            ("event", .string("coverage")), ("target", .string(target.name)), ("rule", .string(row.rule)),
                            ("decided", .int(row.decided)), ("cases", .int(run.cases)),
                        ]).rendered + "\n")
                    }
                }
            }
            let rules = run.found.compactMap { found in
                found.0.failure.map { "\($0.failure.rule) \($0.failure.kind.rawValue)" + (found.1.map { " ×\($0)" } ?? "") }
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

    /// What one target's search did: cases, steps and search time, and each failure found with
    /// the number of cases that hit it, and what the cases exercised (in process only).
    private struct TargetRun {
        var cases: Int
        var steps: Int
        var seconds: Double
        var found: [(TargetSearchResult, Int?)]
        var coverage: Coverage?
        var rejected = 0
        var interrupted = false
    }

    /// Searches in worker processes, or in this process with `--in-process` (or no executable);
    /// each failure is saved and printed as soon as it is shrunk.
    private func search(_ target: Target, mutant: String?, options: SearchOptions, progress: ProgressLine) throws(WorkerError) -> TargetRun {
        guard let workerExecutable, !arguments.inProcess else {
            // In process the search cannot stop midway: no handler, so SIGINT and SIGTERM end it at once.
            let run: GraphFuzzEngine.TargetRun
            do {
                run = try target.run(mutant: mutant, options: options, maxSteps: arguments.steps) { found in
                    report(found.result, target: target, progress: progress)
                }
            } catch { throw WorkerError(message: "\(error)") }
            return TargetRun(cases: run.cases, steps: run.steps, seconds: run.seconds,
                             found: run.found.map { ($0.result, $0.caseCount) }, coverage: run.coverage,
                             rejected: run.rejected)
        }
        Interruption.install()
        let budget: WorkerBudget
        do { budget = try WorkerBudget.current(requested: arguments.jobs) } catch { throw WorkerError(message: error.message, usage: true) }
        if let note = budget.note { console.err("graph-fuzz: note: \(note)\n") }
        var events = WorkerSearchEvents()
        events.found = { found in report(found.result, target: target, progress: progress) }
        events.note = { note in
            progress.clear()
            console.err("graph-fuzz: note: \(note)\n")
        }
        events.progress = { snapshot in progress.show(target: target.name, mutant: mutant, runs: options.runs, snapshot) }
        events.progressInterval = progress.interval
        events.stopRequested = { Interruption.signal != nil }
        let result = try WorkerSearch(target: target, mutant: mutant, options: options, maxSteps: arguments.steps ?? target.defaultSteps,
                                      jobs: budget.jobs, caseTimeout: arguments.caseTimeout, executable: workerExecutable,
                                      events: events).run()
        return TargetRun(cases: result.cases, steps: result.steps, seconds: result.seconds,
                         found: result.found.map { ($0.result, $0.caseCount) }, coverage: result.coverage, rejected: result.rejected,
                         interrupted: result.interrupted)
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
