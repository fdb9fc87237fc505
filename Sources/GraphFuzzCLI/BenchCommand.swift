#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import GraphFuzzIsolation
import GraphTarget

/// `graph-fuzz bench`: throughput of each target (spec alone, the system's share, differential), time to the first
/// shrunk failure for every mutant over 20 seeds, 3 with `--quick` (as a run reports it, in worker processes), peak
/// memory; `--first-failure` that table alone. (The public shrinking challenge is measured by scripts/shrink-compare, beside
/// Hypothesis.)
struct BenchCommand: Command {
    static let name = "bench"
    static let usage = """
        bench [--quick] [--json] [--target NAME] [--soak SECONDS]
          | bench --first-failure [--target NAME] [--mutant NAME] [--seeds N] [--passes] [--json] | bench --reach [--seeds N]
        """
    static let help = """
        throughput, time to the first shrunk failure per mutant (seeds 1–20; --quick: 1–3), shrink cost,
        memory (best from a release build: swift run -c release graph-fuzz bench);
        --first-failure: per mutant (of --target, or --mutant alone), seeds 1…N (default 10), each run
        as `graph-fuzz --mutant NAME --seed S` runs it (default workers) until its first failure is
        shrunk and reported: the time from the start to that report and to that failure found, before
        its shrink (median, worst), the cases up to the lowest failing case, the shrink's attempts, the
        shrunk steps and the CPU time of the run's processes, workers included (median, worst); --passes:
        which shrink passes spent the attempts;
        GRAPHFUZZ_PHASE_LOG=FILE in the environment: each process logs its phases to FILE (read it with
        scripts/phase-summary.py FILE);
        --reach: how many of seeds 1…N (default 5) reach each rare state of the graph target
        """

    var quick: Bool
    var json: Bool
    var target: String
    /// Seconds of a memory soak run (0: none).
    var soak: Double
    /// With `--reach`: the seeds 1…N whose runs are measured (nil: no reach measurement).
    var reachSeeds: Int?
    /// With `--first-failure`: the seeds 1…N of the mutants' table, which is all that is measured (nil: everything).
    var firstFailureSeeds: Int?
    /// With `--first-failure`: one mutant alone.
    var mutant: String?
    /// With `--first-failure`: the shrink attempts per pass, per mutant.
    var passes: Bool

    init(_ flags: inout Flags) throws(UsageError) {
        target = try flags.string("--target") ?? "all"
        soak = try flags.seconds("--soak", in: FlagLimits.time) ?? 0
        quick = try flags.has("--quick")
        json = try flags.has("--json")
        let seeds = try flags.int("--seeds", in: 1...100)
        mutant = try flags.string("--mutant")
        passes = try flags.has("--passes")
        reachSeeds = try flags.has("--reach") ? seeds ?? 5 : nil
        firstFailureSeeds = try flags.has("--first-failure") ? seeds ?? 10 : nil
        if reachSeeds != nil && firstFailureSeeds != nil { throw UsageError("bench: --reach and --first-failure measure different things: give one") }
        if seeds != nil && reachSeeds == nil && firstFailureSeeds == nil { throw UsageError("bench --seeds: only with --reach or --first-failure") }
        for (flag, given) in [("--mutant", mutant != nil), ("--passes", passes)] where given && firstFailureSeeds == nil {
            throw UsageError("bench \(flag): only with --first-failure")
        }
    }

    func run(_ context: CommandContext) throws(UsageError) -> Int32 {
        let registry = context.registry, console = context.console
        if let reachSeeds {
            Self.reach(seeds: reachSeeds, console)
            return 0
        }
        let json = self.json
        let emit: (JSONValue) -> Void = { if json { console.out($0.rendered + "\n") } }
        let progress: (String) -> Void = { if console.isTerminal && !json { console.err("… \($0)\n") } }
        var targets = registry.targets
        if target != "all" {
            guard let target = registry.target(named: target) else {
                throw UsageError("bench --target: unknown target '\(self.target)' (known: \(registry.targets.map(\.name).joined(separator: ", ")), all)")
            }
            targets = [target]
        }
        // Each mutant's seeds run as `graph-fuzz --mutant NAME --seed S` runs them: in worker processes, one per core.
        let executor = context.workerExecutable.map { WorkerCommand.executor($0, entry: context.workerEntry, jobs: nil, caseTimeout: 10) }
        let workers = executor == nil ? "in this process" : "\(ProcessInfo.processInfo.activeProcessorCount) cores, default workers"
        if let firstFailureSeeds {
            var selected = targets.flatMap { target in target.mutants.map { (target, $0.name) } }
            if let mutant {
                selected = selected.filter { $0.1 == mutant }
                guard !selected.isEmpty else {
                    let known = targets.flatMap { $0.mutants.map(\.name) }.joined(separator: ", ")
                    throw UsageError("bench --mutant: unknown mutant '\(mutant)'\(target == "all" ? "" : " of target '\(target)'") (known: \(known))")
                }
            }
            let table = MutantTable(seeds: 1...UInt64(firstFailureSeeds), executor: executor, emit: emit, progress: progress)
            for (target, mutant) in selected { table.measure(target, mutant) }
            if !json {
                console.out(table.title(workers: workers) + "\n" + table.text + "\n")
                if passes { console.out(table.passesText) }
            }
            return 0
        }
        let cases = quick ? 100 : 400
        let seconds = quick ? 0.3 : 2.0
        // The system's rate is derived: a differential step's time less a specification step's (cases generated and
        // predicted against the model alone); cheap systems (the queue) sit within the noise.
        var throughputRows = [["target", "spec steps/s", "system steps/s (derived)", "differential steps/s", "overhead"]]
        // `--quick` is a smoke check: seeds 1–3 (swift test checks every mutant over 20 seeds).
        let mutantTable = MutantTable(seeds: 1...(quick ? 3 : 20), executor: executor, emit: emit, progress: progress)
        var workerRows = [["target", "--jobs 1 steps/s", "--jobs 2 steps/s", "speed-up"]]
        var diskRows = [["target", "on-disk cases", "on-disk steps/s", "in-memory steps/s", "share of search time"]]
        for target in targets {
            progress("throughput \(target.name)")
            let t = target.machine().measureThroughput(seed: 1, cases: cases, maxSteps: target.defaultSteps, minimumSeconds: seconds)
            emit(.object([("event", .string("bench")), ("target", .string(target.name)),
                          ("specStepsPerSecond", .double(t.specStepsPerSecond.rounded())),
                          ("systemStepsPerSecond", .double(t.systemStepsPerSecond.rounded())),
                          ("differentialStepsPerSecond", .double(t.differentialStepsPerSecond.rounded())),
                          ("overhead", .double((t.overhead * 100).rounded() / 100))]))
            throughputRows.append([target.name, Self.count(t.specStepsPerSecond), Self.count(t.systemStepsPerSecond),
                                   Self.count(t.differentialStepsPerSecond), String(format2(t.overhead)) + "×"])
            progress("on-disk \(target.name)")
            if let disk = target.machine().measureOnDisk(seed: 1, cases: quick ? 10 : 50, maxSteps: target.defaultSteps, minimumSeconds: seconds) {
                let timeShare = disk.timeShare(inMemoryStepsPerSecond: t.differentialStepsPerSecond)
                emit(.object([("event", .string("bench-disk")), ("target", .string(target.name)),
                              ("caseShare", .double((disk.caseShare * 1000).rounded() / 1000)), ("cases", .int(disk.cases)),
                              ("stepsPerSecond", .double(disk.stepsPerSecond.rounded())),
                              ("timeShare", .double((timeShare * 1000).rounded() / 1000))]))
                diskRows.append([target.name, Self.percent(disk.caseShare), Self.count(disk.stepsPerSecond),
                                 Self.count(t.differentialStepsPerSecond), Self.percent(timeShare)])
            }
            // In 1 and 2 worker processes too, when there is an executable to start them from.
            if let executable = context.workerExecutable {
                progress("workers \(target.name)")
                do {
                    let launch = WorkerCommand.launch(executable, entry: context.workerEntry, target: target.name, mutant: nil, steps: target.defaultSteps)
                    let rows = try WorkerScaling(seconds: seconds, launch: launch).measure(target, jobs: [1, 2])
                    for row in rows {
                        emit(.object([("event", .string("bench-jobs")), ("target", .string(target.name)), ("jobs", .int(row.jobs)),
                                      ("cases", .int(row.cases)), ("stepsPerSecond", .double(row.stepsPerSecond.rounded()))]))
                    }
                    workerRows.append([target.name, Self.count(rows[0].stepsPerSecond), Self.count(rows[1].stepsPerSecond),
                                       format2(rows[1].stepsPerSecond / Swift.max(rows[0].stepsPerSecond, 1)) + "×"])
                } catch {
                    console.err("graph-fuzz bench: workers: \(error)\n")
                }
            }
            for mutant in target.mutants { mutantTable.measure(target, mutant.name) }
        }
        if soak > 0 { soak(targets, console) }
        let peak = Benchmark.peakResidentBytes()
        emit(.object([("event", .string("bench-memory")), ("peakResidentBytes", .int(peak))]))
        if !json {
            console.out("Throughput (one core, \(cases) cases per target)\n" + Format.table(throughputRows) + "\n")
            if diskRows.count > 1 {
                console.out("On-disk cases (left out of the throughput above; differential steps/s of those cases alone, their share of "
                    + "a search's cases, and of its time)\n" + Format.table(diskRows) + "\n")
            }
            if workerRows.count > 1 {
                console.out("Search in worker processes (\(Format.seconds(seconds)) each, \(ProcessInfo.processInfo.activeProcessorCount) cores)\n" + Format.table(workerRows) + "\n")
            }
            console.out(mutantTable.title(workers: workers) + "\n" + mutantTable.text + "\n")
            console.out("peak resident memory: \(peak / 1_048_576) MiB\n")
        }
        return 0
    }

    /// Runs differential cases for `soak` seconds; reports resident memory after one
    /// minute (or a tenth of the run, if shorter) and at the end.
    private func soak(_ targets: [Target], _ console: Console) {
        let clock = ContinuousClock()
        let start = clock.now
        let checkpoint = min(60, soak / 10)
        var early = 0, caseIndex = 0, steps = 0
        let machines = targets.map { ($0.machine(), $0.defaultSteps) }
        while (clock.now - start).seconds < soak {
            for (machine, maxSteps) in machines {
                steps += machine.run(Draw(seed: SplitMix64.caseSeed(run: 99, case: caseIndex)), maxSteps).steps
            }
            caseIndex += 1
            if early == 0 && (clock.now - start).seconds >= checkpoint { early = Benchmark.residentBytes() }
        }
        let end = Benchmark.residentBytes()
        let growth = early > 0 ? Double(end - early) / Double(early) * 100 : 0
        if !json {
            console.out("soak: \(caseIndex) cases per target, \(steps) steps in \(Format.seconds(soak)); resident \(early / 1024) KiB after \(Format.seconds(checkpoint)), \(end / 1024) KiB at the end (\(format2(growth))%)\n\n")
        }
    }

    /// The share of seeds whose run (the default budget, generated against the specification alone) reaches each of
    /// the graph target's rare states, and how many cases of each seed's run do.
    static func reach(seeds: Int, _ console: Console) {
        let counts = RareState.measure(seeds: (1...UInt64(seeds)).map { $0 }, runs: SearchLoop.defaultRuns, maxSteps: Target.graph.defaultSteps)
        var rows = [["rare state", "rule", "seeds reaching", "cases per seed"]]
        for (s, state) in RareState.all.enumerated() {
            let perSeed = counts.map { $0[s] }
            rows.append([state.name, state.rule, "\(perSeed.count { $0 > 0 })/\(seeds)", perSeed.map(String.init).joined(separator: " ")])
        }
        console.out("graph target, seeds 1–\(seeds), \(SearchLoop.defaultRuns) cases each\n" + Format.table(rows) + "\n")
    }

    static func count(_ rate: Double) -> String { String(Int(rate.rounded())) }
    static func percent(_ share: Double) -> String { format2(share * 100) + "%" }
    static func millis(_ seconds: Double) -> String { format2(seconds * 1000) + " ms" }
}

/// The mutants' table of `bench`: each mutant run with each seed until its first failure is shrunk and reported.
private final class MutantTable {
    let seeds: ClosedRange<UInt64>
    let executor: ((Target, SearchPlan) throws(RunError) -> any CaseExecutor)?
    let emit: (JSONValue) -> Void
    let progress: (String) -> Void
    private var rows = [["target", "mutant", "found", "other rule", "median", "max", "found at (median)", "found at (max)", "cases (median)",
                         "attempts (median)", "attempts (max)", "steps (median)", "steps (max)", "CPU (median)", "CPU (max)"]]
    private var passRows: [(String, [[String]])] = []

    init(seeds: ClosedRange<UInt64>, executor: ((Target, SearchPlan) throws(RunError) -> any CaseExecutor)?,
         emit: @escaping (JSONValue) -> Void, progress: @escaping (String) -> Void) {
        self.seeds = seeds
        self.executor = executor
        self.emit = emit
        self.progress = progress
    }

    func measure(_ target: Target, _ mutant: String) {
        progress("mutant \(mutant)")
        let m = Benchmark.mutant(target, mutant, seeds: seeds, runs: SearchLoop.defaultRuns, executor: executor)
        let perSeed: [JSONValue] = m.runs.map { run in
            .object([("seed", .uint(run.seed)), ("seconds", .double(run.seconds)), ("foundSeconds", .double(run.foundSeconds)),
                     ("cpuSeconds", .double(run.cpuSeconds)), ("cases", .int(run.cases)),
                     ("originalSteps", .int(run.originalSteps)), ("steps", .int(run.steps)), ("shrinkAttempts", .int(run.shrinkAttempts))])
        }
        let passes = m.passAttempts.filter { $0.attempts > 0 }
        emit(.object([("event", .string("bench-mutant")), ("target", .string(target.name)), ("mutant", .string(m.mutant)),
                      ("seeds", .int(m.seeds)), ("found", .int(m.found)),
                      ("misattributed", .array(m.misattributed.map { .object([("seed", .uint($0.seed)), ("rule", .string($0.rule))]) })),
                      ("medianSeconds", .double(m.medianSeconds)), ("maxSeconds", .double(m.maxSeconds)),
                      ("medianFoundSeconds", .double(m.medianFoundSeconds)), ("maxFoundSeconds", .double(m.maxFoundSeconds)),
                      ("medianCPUSeconds", .double(m.medianCPUSeconds)), ("maxCPUSeconds", .double(m.maxCPUSeconds)),
                      ("medianCases", .int(m.medianCases)), ("medianSteps", .int(m.medianSteps)), ("maxSteps", .int(m.maxSteps)),
                      ("medianShrinkAttempts", .int(m.medianShrinkAttempts)), ("maxShrinkAttempts", .int(m.maxShrinkAttempts)),
                      ("runs", .array(perSeed)),
                      ("passes", .array(passes.map { .object([("pass", .string($0.pass)), ("attempts", .int($0.attempts)),
                                                               ("improvements", .int($0.improvements))]) }))]))
        let others = m.misattributed.isEmpty ? "—" : m.misattributed.map { "seed \($0.seed): \($0.rule)" }.joined(separator: ", ")
        rows.append([target.name, m.mutant, "\(m.found)/\(m.seeds)", others, BenchCommand.millis(m.medianSeconds), BenchCommand.millis(m.maxSeconds),
                     BenchCommand.millis(m.medianFoundSeconds), BenchCommand.millis(m.maxFoundSeconds),
                     String(m.medianCases), String(m.medianShrinkAttempts), String(m.maxShrinkAttempts), String(m.medianSteps), String(m.maxSteps),
                     BenchCommand.millis(m.medianCPUSeconds), BenchCommand.millis(m.maxCPUSeconds)])
        passRows.append(("\(target.name)/\(m.mutant)", [["pass", "attempts", "improvements"]]
            + passes.map { [$0.pass, String($0.attempts), String($0.improvements)] }))
    }

    func title(workers: String) -> String {
        "Mutants to their first shrunk failure (seeds \(seeds.lowerBound)–\(seeds.upperBound), --runs \(SearchLoop.defaultRuns), \(workers); "
            + "found: under a rule the mutant declares; other rule: seeds whose failure named another; median and max: time from the start "
            + "to the shrunk failure's report; found at: to the failure found, before its shrink; cases: up to the lowest failing case; "
            + "steps: the shrunk case's; CPU: what the campaign's processes spent in that time, workers included)"
    }

    var text: String { Format.table(rows) }

    /// Per mutant, the shrink attempts each pass spent over all its seeds (passes that ran none left out).
    var passesText: String {
        passRows.map { "shrink passes, \($0.0), seeds \(seeds.lowerBound)–\(seeds.upperBound)\n" + Format.table($0.1) + "\n" }.joined()
    }
}

/// A number with two decimals.
func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    return sign + String(abs(hundredths) / 100) + "." + Format.pad(abs(hundredths) % 100, 2)
}
