// Measures the scheduler (docs/scheduling.md has the figures and how they were taken):
//   schedule-bench job-cost [cases] [yields] [default|random]
//                                                 cost of one scheduled job (run it under callgrind too)
//   schedule-bench find [seeds] [max-cases] [head-start]
//                                                 cases until the lost-update sample fails, per strategy
//   schedule-bench threads [runs] [head-start]    how often the same sample fails on real threads
//   schedule-bench show [seed] [head-start]       one random-walk run of the sample: its lanes, its schedule and events
//   schedule-bench step-cost [cases] [yields] [concurrent|pair|sequential]
//                                                 cost of a machine's step run as a concurrent step of one branch, of
//                                                 two (`pair`), or as a sequential step (10 a case)
//   schedule-bench account [seeds] [max-cases]    cases and time until the guide's account example fails
//   schedule-bench cache [seeds] [max-cases]      cases and time until the cache target finds cache-reentrant-read
//   schedule-bench cache-threads [runs]           how often that mutant's get and set of one key go wrong on real threads
//   schedule-bench mapper [seeds] [max-cases]     cases and time until the mapper target finds enrichment-duplicate-work
//   schedule-bench mapper-threads [runs]          how often that mutant's two enrichments of one volume ID make two works
//                                                 on real threads
//   schedule-bench graph [seeds] [max-cases]      cases and time until the graph target finds background-stale-model
//   schedule-bench table [seeds] [max-cases] [all]
//                                                 strategy × bug: cases until each sample bug (ScheduleSamples) shows, per
//                                                 strategy; with `all`, the four shipped concurrency mutants too
import BooksTracker
import CacheSpec
import CacheTarget
import Foundation
import GraphFuzzEngine
import GraphTarget
import MapperTarget
import PersistentCache
import ScheduleSamples

let arguments = Array(CommandLine.arguments.dropFirst())
/// The portfolio `schedule-bench table` measures beside the single strategies: the engine's default.
let portfolioStrategy = ScheduleStrategy.standard

/// The positional argument at `index` as an integer, or `fallback`; exit code 2 on a malformed one.
func integer(_ index: Int, _ fallback: Int) -> Int {
    guard index < arguments.count else { return fallback }
    guard let value = Int(arguments[index]), value >= 0 else {
        FileHandle.standardError.write(Data("schedule-bench: argument \(index + 1) '\(arguments[index])' is not a non-negative integer\n".utf8))
        exit(2)
    }
    return value
}

/// One task that yields `yields` times: about two jobs per yield (the resumption, then the task).
func yieldCase(_ draw: Draw, yields: Int, strategy: ScheduleStrategy) -> Int {
    Scheduler(draw: draw, options: .init(strategy: strategy)).run {
        for _ in 0..<yields { await Task.yield() }
    }.jobs
}

/// Nanoseconds in `duration`.
func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// What a step of `YieldMachine` works on: nothing to share, so the step's cost is the scheduler's.
final class Nothing: Sendable {}

/// One action that yields `yields` times, as a concurrent action (under the case's scheduler) or a
/// synchronous one (the sequential path, for comparison); groups of `branches` (1 or 2), so every step is one
/// scheduled run.
struct YieldMachine: StateMachine, Sendable {
    let yields: Int
    let concurrent: Bool
    var branches = 1
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: branches > 1 ? 1 : 0, maxBranches: max(2, branches)) }

    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> Nothing { Nothing() }

    var actions: [Action<Self>] {
        let yields = yields
        func predict(_ count: inout Int) -> Prediction<Int> {
            count += 1
            return Prediction(yields, rule: "Y")
        }
        guard concurrent else { return [Action("work", predict: predict, perform: { _ in yields })] }
        return [.concurrent("work", predict: predict, perform: { _ in
            for _ in 0..<yields { await Task.yield() }
            return yields
        })]
    }
}

switch arguments.first {
case "job-cost":
    let cases = integer(1, 2000), yields = integer(2, 50)
    let strategy = arguments.count > 3 && arguments[3] == "random" ? ScheduleStrategy.randomWalk : Scheduler.Options().strategy
    var jobs = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for index in 0..<cases { jobs += yieldCase(Draw(seed: UInt64(index)), yields: yields, strategy: strategy) }
    }
    print("\(strategy): \(cases) cases, \(jobs) jobs, \(String(format: "%.0f", nanoseconds(elapsed) / Double(max(jobs, 1)))) ns per job")

case "find":
    let seeds = integer(1, 100), maxCases = integer(2, 1000), headStart = integer(3, 1)
    let strategies: [ScheduleStrategy] = [.randomWalk] + [(1, 1), (2, 16), (2, 32), (2, 64), (3, 16), (3, 32)].map {
        .pct(depth: $0.0, expectedSteps: $0.1)
    }
    print("lost-update sample, head start \(headStart), seeds 1-\(seeds), at most \(maxCases) cases each")
    for strategy in strategies {
        var counts: [Int] = []
        var jobs = 0
        for seed in 1...UInt64(seeds) {
            for index in 0..<maxCases {
                let outcome = LostUpdate.run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), strategy: strategy,
                                             headStart: headStart)
                jobs += outcome.run.jobs
                if outcome.isLost {
                    counts.append(index + 1)
                    break
                }
            }
        }
        let sorted = counts.sorted()
        let mean = counts.isEmpty ? 0 : Double(counts.reduce(0, +)) / Double(counts.count)
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        print("\(strategy): found in \(counts.count)/\(seeds) seeds; cases to find: mean \(String(format: "%.2f", mean)), "
            + "median \(median), max \(sorted.last ?? 0); \(jobs) jobs in all")
    }

case "threads":
    let runs = integer(1, 10_000), headStart = integer(2, 1)
    var lost = 0
    for _ in 0..<runs where await LostUpdate.runOnRealThreads(headStart: headStart) { lost += 1 }
    print("lost-update sample, head start \(headStart), on real threads: lost \(lost) of \(runs) runs "
        + "(\(ProcessInfo.processInfo.activeProcessorCount) cores)")

case "show":
    let draw = Draw(seed: UInt64(integer(1, 1)))
    let outcome = LostUpdate.run(draw, headStart: integer(2, 1))
    print("value \(outcome.value)\(outcome.isLost ? " (an increment was lost)" : ""); choices \(draw.choices)")
    for line in outcome.run.lanes { print("  " + line) }
    print("one line per job:")
    for line in outcome.run.lines { print("  " + line) }
    for event in outcome.events { print("  counter: " + event.replacingOccurrences(of: #" on thread \d+"#, with: "", options: .regularExpression)) }

case "step-cost":
    let cases = integer(1, 2000), yields = integer(2, 0)
    let mode = arguments.count > 3 ? arguments[3] : "concurrent"
    guard ["concurrent", "pair", "sequential"].contains(mode) else {
        FileHandle.standardError.write(Data("schedule-bench: step-cost's mode '\(mode)' is not concurrent, pair or sequential\n".utf8))
        exit(2)
    }
    let concurrent = mode != "sequential"
    let machine = AnyMachine(YieldMachine(yields: yields, concurrent: concurrent, branches: mode == "pair" ? 2 : 1))
    var steps = 0
    let elapsed = ContinuousClock().measure {
        for index in 0..<cases {
            let run = machine.run(Draw(seed: UInt64(index)), 10)
            precondition(run.outcome == .pass, "the yield machine failed: \(run.outcome)")
            steps += run.steps
        }
    }
    print("\(mode == "pair" ? "two-branch" : mode) step, \(yields) yields: \(cases) cases, \(steps) steps, "
        + "\(String(format: "%.0f", nanoseconds(elapsed) / Double(max(steps, 1)))) ns per step")

case "account", "cache", "mapper", "graph":
    let seeds = integer(1, 100), maxCases = integer(2, 1000)
    let strategies: [ScheduleStrategy] = [.randomWalk] + [(2, 16), (2, 64), (3, 16), (3, 64)].map { .pct(depth: $0.0, expectedSteps: $0.1) }
    let example = ["account": "the guide's account example", "cache": "cache-reentrant-read",
                   "mapper": "enrichment-duplicate-work"][arguments[0]] ?? "background-stale-model"
    print("\(example), 30 steps a case, seeds 1-\(seeds), at most \(maxCases) cases each")
    for strategy in strategies {
        let found = casesUntilFound(seeds: seeds, maxCases: maxCases, shows: machineFailure(arguments[0], strategy))
        let sorted = found.map(\.cases).sorted()
        let seconds = found.map(\.seconds)
        let mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count)
        let meanSeconds = seconds.isEmpty ? 0 : seconds.reduce(0, +) / Double(seconds.count)
        print("\(strategy): found in \(found.count)/\(seeds) seeds; cases to find: mean \(String(format: "%.2f", mean)), "
            + "median \(sorted.isEmpty ? 0 : sorted[sorted.count / 2]), max \(sorted.last ?? 0); "
            + "time to find: mean \(String(format: "%.1f", meanSeconds * 1000)) ms, max \(String(format: "%.1f", (seconds.max() ?? 0) * 1000)) ms")
    }

case "table":
    let seeds = integer(1, 20), maxCases = integer(2, 2000)
    let withTargets = arguments.count > 3 && arguments[3] == "all"
    let strategies: [ScheduleStrategy] = [.randomWalk] + [(2, 16), (2, 64), (3, 16), (3, 64)].map { .pct(depth: $0.0, expectedSteps: $0.1) }
        + [portfolioStrategy]
    var columns: [(title: String, shows: (ScheduleStrategy) -> (Draw) -> Bool)] = SampleBug.all.map { bug in
        ("\(bug.shape): `\(bug.name)`", { strategy in { draw in bug.shows(draw, Scheduler.Options(strategy: strategy, outsideWait: .zero)) } })
    }
    if withTargets {
        columns += [("cache", "`cache-reentrant-read`"), ("mapper", "`enrichment-duplicate-work`"), ("graph", "`background-stale-model`"),
                    ("graph-cancel", "`cancelled-refresh-leaves-change`")].map { target, title in
            (title + " (30 steps a case)", { strategy in machineFailure(target, strategy) })
        }
    }
    print("Cases until each bug shows, seeds 1-\(seeds), at most \(maxCases) cases each: found; mean (median, max) cases to find\n")
    print("| strategy | " + columns.map(\.title).joined(separator: " | ") + " |")
    print("|---|" + String(repeating: "---|", count: columns.count))
    for strategy in strategies {
        let cells = columns.map { column -> String in
            let found = casesUntilFound(seeds: seeds, maxCases: maxCases, shows: column.shows(strategy)).map(\.cases).sorted()
            let mean = found.isEmpty ? 0 : Double(found.reduce(0, +)) / Double(found.count)
            return found.isEmpty ? "0/\(seeds)" : "\(found.count)/\(seeds); \(String(format: "%.1f", mean)) (\(found[found.count / 2]), \(found.last!))"
        }
        print("| \(strategy) | " + cells.joined(separator: " | ") + " |")
    }

case "cache-threads":
    let runs = integer(1, 10_000)
    var stale = 0
    for _ in 0..<runs where await CacheReentrantRead.runOnRealThreads() { stale += 1 }
    print("cache-reentrant-read on real threads: a get and a set of one key on disk, not in memory, as two child tasks; "
        + "the next get returned the older value in \(stale) of \(runs) runs")

case "mapper-threads":
    let runs = integer(1, 10_000)
    var duplicated = 0
    for _ in 0..<runs where await MainActorEnrichments().duplicate() { duplicated += 1 }
    print("enrichment-duplicate-work on real threads: two enrichments of one volume ID as child tasks on the main actor, "
        + "each awaiting a task on the global executor; two works held the volume ID in \(duplicated) of \(runs) runs")

default:
    FileHandle.standardError.write(Data(("usage: schedule-bench job-cost [cases] [yields] [default|random] | find [seeds] [max-cases] [head-start] | "
        + "threads [runs] [head-start] | show [seed] [head-start] | step-cost [cases] [yields] [concurrent|pair|sequential] | account [seeds] [max-cases] | "
        + "cache [seeds] [max-cases] | cache-threads [runs] | mapper [seeds] [max-cases] | mapper-threads [runs] | graph [seeds] [max-cases] | "
        + "table [seeds] [max-cases] [all]\n").utf8))
    exit(2)
}


/// For each seed in `1...seeds`, the cases (1-based) and seconds until `shows` held for a case of that seed's search,
/// if it did within `maxCases`.
func casesUntilFound(seeds: Int, maxCases: Int, shows: (Draw) -> Bool) -> [(cases: Int, seconds: Double)] {
    (1...UInt64(seeds)).compactMap { seed in
        let start = ContinuousClock.now
        guard let index = (0..<maxCases).first(where: { shows(Draw(seed: SplitMix64.caseSeed(run: seed, case: $0))) }) else { return nil }
        return (index + 1, nanoseconds(ContinuousClock.now - start) / 1e9)
    }
}

/// Whether a case of 30 steps of `target` (`account`, `cache`, `mapper`, `graph`, `graph-cancel`: the graph target's
/// cancellation mutant), scheduled by `strategy`, fails.
func machineFailure(_ target: String, _ strategy: ScheduleStrategy) -> (Draw) -> Bool {
    let machine: AnyMachine
    switch target {
    case "account":
        var account = AccountMachine()
        account.concurrentSteps.strategy = strategy
        machine = AnyMachine(account)
    case "cache":
        var cache = CacheMachine(strategy: CacheStrategy(.reentrantRead))
        cache.concurrentSteps.strategy = strategy
        machine = AnyMachine(cache)
    case "mapper":
        var mapper = MapperMachine(strategy: MapperStrategy(.enrichmentDuplicateWork))
        mapper.concurrentSteps.strategy = strategy
        machine = AnyMachine(mapper)
    default:
        let mutant = target == "graph-cancel" ? "cancelled-refresh-leaves-change" : "background-stale-model"
        var graph = GraphMachine(faults: GraphMachine.mutants.selection(for: mutant))
        graph.concurrentSteps.strategy = strategy
        machine = AnyMachine(graph)
    }
    return { machine.run($0, 30).outcome.failure != nil }
}

/// The mutant's concurrency test as ordinary child tasks on the process's executors (real threads).
enum CacheReentrantRead {
    /// Sets key 0, evicts it from memory, then gets and sets it at once; whether the get after them returned the
    /// older value (the read promoted what it read over the concurrent set's value).
    static func runOnRealThreads() async -> Bool {
        let app = CacheExportFixture(realFileSystem: false, cleanupInterval: 100, strategy: CacheStrategy(.reentrantRead))
        let older = CacheTargetValue.bytes(CacheValueSpec(tag: 1, length: 200), key: 0)
        let newer = CacheTargetValue.bytes(CacheValueSpec(tag: 2, length: 200), key: 0)
        app.caches[0].set(older, for: CacheTargetKey(0))
        (app.environment.sharedMemoryTier(for: "main") as? ManualMemoryTier)?.evictAll()
        let cache = MemoryCache(sharing: SharedCore(app.caches[0]))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await cache.value(for: CacheTargetKey(0)) }
            group.addTask { await cache.set(newer, for: CacheTargetKey(0)) }
        }
        return await cache.value(for: CacheTargetKey(0)) != newer
    }
}
