import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
import GraphTarget

/// `graph-fuzz bench`: throughput of each target (spec alone, the system's share, differential), time to a
/// shrunk failure for every mutant over 20 seeds, peak memory. (The public shrinking challenge is measured by
/// scripts/shrink-compare, beside Hypothesis.)
struct BenchCommand: Command {
    static let name = "bench"
    static let usage = "bench [--quick] [--json] [--target NAME] [--soak SECONDS] | bench --reach [--seeds N]"
    static let help = """
        throughput, time to failure per mutant, shrink cost, memory
        (best from a release build: swift run -c release graph-fuzz bench);
        --reach: how many of seeds 1…N (default 5) reach each rare state of the graph target
        """

    var quick: Bool
    var json: Bool
    var target: String
    /// Seconds of a memory soak run (0: none).
    var soak: Double
    /// With `--reach`: the seeds 1…N whose runs are measured (nil: no reach measurement).
    var reachSeeds: Int?

    init(_ flags: inout Flags) throws(UsageError) {
        target = try flags.string("--target") ?? "all"
        soak = try flags.seconds("--soak", in: FlagLimits.time) ?? 0
        quick = try flags.has("--quick")
        json = try flags.has("--json")
        let seeds = try flags.int("--seeds", in: 1...100)
        reachSeeds = try flags.has("--reach") ? seeds ?? 5 : nil
        if seeds != nil && reachSeeds == nil { throw UsageError("bench --seeds: only with --reach") }
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
        let cases = quick ? 100 : 400
        let seconds = quick ? 0.3 : 2.0
        let seeds: ClosedRange<UInt64> = 1...20
        // The system's rate is derived: a differential step's time less a specification step's (cases generated and
        // predicted against the model alone); cheap systems (the queue) sit within the noise.
        var throughputRows = [["target", "spec steps/s", "system steps/s (derived)", "differential steps/s", "overhead"]]
        var mutantRows = [["target", "mutant", "found", "other rule", "median s", "max s", "median steps", "max steps", "median attempts"]]
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
                    let launch = WorkerCommand.launch(executable, target: target.name, mutant: nil, steps: target.defaultSteps)
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
            for mutant in target.mutants {
                progress("mutant \(mutant.name)")
                let m = Benchmark.mutant(target, mutant.name, seeds: seeds, runs: SearchLoop.defaultRuns)
                emit(.object([("event", .string("bench-mutant")), ("target", .string(target.name)), ("mutant", .string(m.mutant)),
                              ("seeds", .int(m.seeds)), ("found", .int(m.found)),
                              ("misattributed", .array(m.misattributed.map { .object([("seed", .int(Int($0.seed))), ("rule", .string($0.rule))]) })),
                              ("medianSeconds", .double(m.medianSeconds)),
                              ("maxSeconds", .double(m.maxSeconds)), ("medianSteps", .int(m.medianSteps)),
                              ("maxSteps", .int(m.maxSteps)), ("medianShrinkAttempts", .int(m.medianShrinkAttempts))]))
                let others = m.misattributed.isEmpty ? "—" : m.misattributed.map { "seed \($0.seed): \($0.rule)" }.joined(separator: ", ")
                mutantRows.append([target.name, m.mutant, "\(m.found)/\(m.seeds)", others, Self.millis(m.medianSeconds), Self.millis(m.maxSeconds),
                                   String(m.medianSteps), String(m.maxSteps), String(m.medianShrinkAttempts)])
            }
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
            console.out("Mutants (\(seeds.count) seeds each, --runs \(SearchLoop.defaultRuns); found: under a rule the mutant declares; other rule: seeds whose failure named another)\n" + Format.table(mutantRows) + "\n")
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

/// A number with two decimals.
func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    return sign + String(abs(hundredths) / 100) + "." + Format.pad(abs(hundredths) % 100, 2)
}
