#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GraphFuzzEngine
import GraphFuzzIsolation

/// `graph-fuzz [flags]`: searches each selected target, shrinks, reports and saves its failures. The searching is
/// the engine's (`Campaign`), in worker processes (`ProcessExecutor`) unless `--in-process`; this command reads the
/// flags into the run's options and prints the campaign's events, as text or JSON Lines.
struct RunCommand: Command {
    static let name = ""
    static let usage = """
        [--target NAME|all] [--seed N] [--runs N] [--steps N] [--time SECONDS] [--mutant NAME]
        [--json] [--corpus DIR] [--no-save] [--quiet] [--progress]
        [--jobs N] [--shard I/N] [--case-timeout SECONDS] [--in-process] [--case N]
        """
    static let help = """
          --target NAME   a target from `graph-fuzz list`, or all (default)
          --seed N        the run's seed (default: a fresh one, printed first)
          --runs N        test cases per target (default 2000; at most 10^12)
          --steps N       most steps per case (default: the target's own; at most 1000000)
          --time SECONDS  wall-clock budget per target for the search (shrinking not counted)
          --mutant NAME   run against a named faulty variant of the production code
          --json          JSON Lines on standard output, one object per event (keys below)
          --corpus DIR    where failures are saved (default Corpus/); checked before the search by
                          writing a probe file there and reading its identity file (exit 2 naming
                          the path and the reason); a case that cannot be saved later is exit 3
          --no-save       do not save failures
          --quiet         only failures and the summary (no progress line)
          --progress      a progress line on standard error every 2 s even when it is not a terminal
                          (on a terminal one line is kept up to date anyway)
          --jobs N        worker processes running cases in parallel (default and most: one per core)
          --shard I/N     run only slice I of N of the cases (CI machines split one seed's budget)
          --case-timeout SECONDS
                          a case running longer is run again in a fresh worker and is a hang only if
                          one of its steps alone runs longer (default 10; 0.1 to 86400)
          --in-process    run cases in this process: fastest, no crash or hang isolation (failures
                          are still grouped by signature, as in workers)
          --case N        run case N of the seed's run alone (needs --seed; with the run's --steps):
                          a failure's `reproduce:` line names it, and prints the same report
        """

    var target = "all"
    var seed: UInt64?
    var runs = SearchLoop.defaultRuns
    var steps: Int?
    var time: Double?
    var mutant: String?
    var json: Bool
    var corpus = "Corpus"
    var save: Bool
    var quiet: Bool
    /// Worker processes (nil: one per core); ignored with `inProcess`.
    var jobs: Int?
    /// `--shard I/N`: slice I (1-based) of N; case i belongs to slice i % N + 1.
    var shard = (index: 1, count: 1)
    /// Seconds before a running case is suspected of hanging.
    var caseTimeout = 10.0
    var inProcess: Bool
    /// Print a progress line every few seconds even when standard error is not a terminal.
    var progress: Bool
    /// `--case N`: run case N of the seed's run alone (the report's reproduce line).
    var caseIndex: Int?

    init(_ flags: inout Flags) throws(UsageError) {
        target = try flags.string("--target") ?? target
        seed = try flags.seed("--seed")
        let runs = try flags.int("--runs", in: FlagLimits.runs)
        self.runs = runs ?? self.runs
        steps = try flags.int("--steps", in: FlagLimits.steps)
        time = try flags.seconds("--time", in: FlagLimits.time)
        mutant = try flags.string("--mutant")
        corpus = try flags.string("--corpus") ?? corpus
        jobs = try flags.int("--jobs", in: FlagLimits.jobs)
        let shard = try flags.value("--shard", Self.shard)
        self.shard = shard ?? self.shard
        caseTimeout = try flags.value("--case-timeout", Flags.caseTimeout) ?? caseTimeout
        caseIndex = try flags.value("--case", Self.caseNumber)
        json = try flags.has("--json")
        save = try !flags.has("--no-save")
        quiet = try flags.has("--quiet")
        inProcess = try flags.has("--in-process")
        progress = try flags.has("--progress")
        // `--case N` runs one case of one seed's run: it needs the seed, and takes no budget or slice of cases.
        if caseIndex != nil {
            guard seed != nil else { throw UsageError("--case: needs --seed (a case number names a case of one seed's run)") }
            for (flag, given) in [("--runs", runs != nil), ("--time", time != nil), ("--shard", shard != nil)] where given {
                throw UsageError("--case: runs one case, so \(flag) cannot be given with it")
            }
        }
    }

    func run(_ context: CommandContext) throws(UsageError) -> Int32 {
        let console = context.console
        let selected = try selection(context.registry)
        if save {
            // Found now, not after the whole search: a corpus that cannot take the cases.
            do { try Corpus.checkSavable(corpus) } catch {
                throw UsageError("--corpus: \(error) (use another --corpus, or --no-save)")
            }
        }
        if inProcess, let jobs { console.err("graph-fuzz: note: --in-process runs every case in this process: --jobs \(jobs) is ignored\n") }
        let seed = self.seed ?? context.freshSeed()
        if !json { console.out("graph-fuzz: seed \(seed)\n") }
        let progress = ProgressLine(console: console, enabled: !quiet && (console.isTerminal || self.progress), rewrite: console.isTerminal)
        // The executable stops at SIGINT and SIGTERM (in process between chunks of cases); a command run inside
        // another program (a test) leaves that program's signals alone.
        if context.workerExecutable != nil { Interruption.install() }
        // `--case N`: case N alone, generated as in any run of the seed.
        let options = SearchOptions(seed: seed, runs: caseIndex.map { $0 + 1 } ?? runs, timeLimit: time, shardIndex: shard.index - 1,
                                    shardCount: shard.count, firstCase: caseIndex ?? 0, steps: steps)
        var campaign = Campaign(selection: selected, options: options, corpus: save ? corpus : nil,
                                stopRequested: { Interruption.signal != nil || console.writeFailure() != nil },
                                progressInterval: progress.interval)
        if let executable = context.workerExecutable, !inProcess {
            campaign.executor = WorkerCommand.executor(executable, entry: context.workerEntry, jobs: jobs, caseTimeout: caseTimeout,
                                                       budgetNote: { console.err("graph-fuzz: note: \($0)\n") }, note: { progress.note($0) })
        }
        var report = RunReport(json: json, quiet: quiet, console: console, progress: progress, caseIndex: caseIndex, runs: self.runs)
        let searched: [SearchRun]
        do { searched = try campaign.run { report.print($0) } } catch {
            progress.clear()
            console.err("graph-fuzz: \(error)\n")
            return error.exitCode
        }
        report.printSummary()
        if searched.last?.interrupted == true {
            // Stopped because the output could not be written: `GraphFuzzCommand` says so, exit 3.
            guard let signal = Interruption.signal else { return 3 }
            console.err("graph-fuzz: interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT"): workers stopped, the summary above is the run so far\n")
            return Interruption.exitCode
        }
        if report.unsaved > 0 {
            // The disk filled or the corpus changed under the run: the harness's fault, never the code's.
            console.err("graph-fuzz: infrastructure error: \(report.unsaved) of the failures found could not be saved to \(corpus) "
                + "(the path and reason are above; free the disk or fix the folder, then run the reproduce lines again)\n")
            return 3
        }
        return searched.contains { !$0.failures.isEmpty } ? 1 : 0
    }

    /// The (target, mutant) pairs to run.
    private func selection(_ registry: Registry) throws(UsageError) -> [(target: Target, mutant: String?)] {
        let names = registry.targets.map(\.name).joined(separator: ", ")
        if let mutant {
            let owners = registry.targets.filter { $0.mutant(named: mutant) != nil }
            guard let owner = owners.first else {
                let all = registry.targets.flatMap { $0.mutants.map(\.name) }.joined(separator: ", ")
                throw UsageError("--mutant: unknown mutant '\(mutant)' (known: \(all))")
            }
            if target != "all" && target != owner.name {
                guard registry.target(named: target) != nil else { throw UsageError("--target: unknown target '\(target)' (known: \(names), all)") }
                throw UsageError("--mutant: '\(mutant)' belongs to target '\(owner.name)', not '\(target)'")
            }
            return [(owner, mutant)]
        }
        if target == "all" { return registry.targets.map { ($0, nil) } }
        guard let found = registry.target(named: target) else {
            throw UsageError("--target: unknown target '\(target)' (known: \(names), all)")
        }
        return [(found, nil)]
    }

    /// `--shard`: I/N with 1 ≤ I ≤ N.
    private static func shard(_ label: String, _ text: String) throws(UsageError) -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ Flags.isInteger(String($0)) && !$0.hasPrefix("-") }), parts.contains(where: { Int($0) == nil }) {
            throw UsageError("\(label): '\(text)' is out of range (I/N with 1 ≤ I ≤ N ≤ \(Int.max))")
        }
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, (1...count).contains(index) else {
            throw UsageError("\(label): '\(text)' is not I/N with 1 ≤ I ≤ N (for example 2/4)")
        }
        return (index, count)
    }

    /// `--case`: a case number of a run, 0 up to the most `--runs` allows.
    private static func caseNumber(_ label: String, _ text: String) throws(UsageError) -> Int {
        let limit = FlagLimits.runs.upperBound - 1
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw UsageError("\(label): '\(text)' is not a non-negative integer")
        }
        guard let number = Int(text), number <= limit else { throw UsageError("\(label): '\(text)' is out of range (0–\(limit))") }
        return number
    }
}
