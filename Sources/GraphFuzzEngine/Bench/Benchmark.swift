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

/// How a mutant fared over a set of seeds.
package struct MutantBenchmark: Sendable {
    package var mutant: String
    package var seeds: Int
    /// Seeds whose failure named a rule the mutant declares.
    package var found: Int
    /// Seeds whose failure named another rule: (seed, the rule it named).
    package var misattributed: [(seed: UInt64, rule: String)] = []
    /// Each seed whose search found the mutant under a declared rule, in seed order.
    package var runs: [FirstFailure] = []

    /// Seconds from the campaign's start to its first shrunk failure.
    package var medianSeconds: Double { Benchmark.median(runs.map(\.seconds)) }
    package var maxSeconds: Double { runs.map(\.seconds).max() ?? 0 }
    /// Seconds from the campaign's start to its first failure found, before its shrink (`CampaignEvent.found`).
    package var medianFoundSeconds: Double { Benchmark.median(runs.map(\.foundSeconds)) }
    package var maxFoundSeconds: Double { runs.map(\.foundSeconds).max() ?? 0 }
    /// CPU seconds of the campaign's processes (see `FirstFailure.cpuSeconds`).
    package var medianCPUSeconds: Double { Benchmark.median(runs.map(\.cpuSeconds)) }
    package var maxCPUSeconds: Double { runs.map(\.cpuSeconds).max() ?? 0 }
    package var medianSteps: Int { Benchmark.median(runs.map(\.steps)) }
    package var maxSteps: Int { runs.map(\.steps).max() ?? 0 }
    package var medianShrinkAttempts: Int { Benchmark.median(runs.map(\.shrinkAttempts)) }
    package var maxShrinkAttempts: Int { runs.map(\.shrinkAttempts).max() ?? 0 }
    package var medianCases: Int { Benchmark.median(runs.map(\.cases)) }
    /// Shrink attempts per pass over every seed, in the shrinker's order (names and counts).
    package var passAttempts: [(pass: String, attempts: Int, improvements: Int)] {
        var totals: [(pass: String, attempts: Int, improvements: Int)] = []
        for run in runs {
            for stats in run.passes {
                if let index = totals.firstIndex(where: { $0.pass == stats.pass }) {
                    totals[index].attempts += stats.attempts
                    totals[index].improvements += stats.improvements
                } else {
                    totals.append((stats.pass, stats.attempts, stats.improvements))
                }
            }
        }
        return totals
    }
}

/// One seed's first shrunk failure: what a developer waits for.
package struct FirstFailure: Sendable, Equatable {
    package var seed: UInt64
    /// Wall-clock seconds from the campaign's start (its workers' start included) to the failure's report.
    package var seconds: Double
    /// Wall-clock seconds from the campaign's start to the failure found (`CampaignEvent.found`): its rule and case
    /// known, once every case below it has run, before its shrink.
    package var foundSeconds: Double
    /// CPU seconds (user and system) the campaign's processes spent in that time: this process up to the report, its
    /// worker processes until they ended (stopped right after it). The work, where `seconds` is the wait: a machine's
    /// other load moves it less.
    package var cpuSeconds: Double
    /// Cases up to and including the lowest failing case (its index + 1).
    package var cases: Int
    /// Steps of the failing case as found, and of the shrunk one.
    package var originalSteps: Int
    package var steps: Int
    package var shrinkAttempts: Int
    /// What each shrink pass did.
    package var passes: [ShrinkPassStats]
}

/// Benchmarks: throughput per target, time to a shrunk failure per mutant, peak memory.
package enum Benchmark {
    /// Searches `mutant` with each seed as the command line does (`Campaign`, the default budget, in this process or
    /// through `executor`'s worker processes) until its first failure is shrunk and reported, and summarises the time
    /// from the campaign's start to that report, the cases run to the lowest failing case, the shrink's attempts and
    /// the shrunk length. A seed whose search finds nothing or can give no verdict (a harness fault) counts as not
    /// found.
    package static func mutant(_ target: Target, _ mutant: String, seeds: ClosedRange<UInt64>, runs: Int,
                               executor: ((Target, SearchPlan) throws(RunError) -> any CaseExecutor)? = nil) -> MutantBenchmark {
        var result = MutantBenchmark(mutant: mutant, seeds: seeds.count, found: 0)
        for seed in seeds {
            guard let (found, seconds, foundSeconds, cpuSeconds) = firstFailure(target, mutant, seed: seed, runs: runs, executor: executor)
            else { continue }
            if found.isMisattributed {
                result.misattributed.append((seed, found.failure.rule))
                continue
            }
            result.found += 1
            result.runs.append(FirstFailure(seed: seed, seconds: seconds, foundSeconds: foundSeconds, cpuSeconds: cpuSeconds, cases: found.caseIndex + 1,
                                            originalSteps: found.originalSteps, steps: found.counterexample?.steps.count ?? 0,
                                            shrinkAttempts: found.shrink.attempts, passes: found.shrink.passes))
        }
        return result
    }

    /// The first failure a campaign of `target`'s `mutant` reports with `seed`, the wall-clock seconds from the
    /// campaign's start to that report and to that failure found (before its shrink), and the CPU seconds its
    /// processes spent (`FirstFailure.cpuSeconds`); the search stops there. Nil when it reports none.
    private static func firstFailure(_ target: Target, _ mutant: String, seed: UInt64, runs: Int,
                                     executor: ((Target, SearchPlan) throws(RunError) -> any CaseExecutor)?) -> (FoundFailure, Double, Double, Double)? {
        PhaseLog.note("campaign \(seed)")
        let clock = ContinuousClock()
        let start = clock.now
        let ownStart = cpuSeconds(children: false), childrenStart = cpuSeconds(children: true)
        var first: (found: FoundFailure, seconds: Double, ownCPU: Double)?
        var foundAt: Double?
        var stop = false
        var campaign = Campaign(selection: [(target, mutant)], options: SearchOptions(seed: seed, runs: runs), scratchName: "bench",
                                stopRequested: { stop })
        campaign.executor = executor
        _ = try? campaign.run { event in
            if case .found = event, foundAt == nil {
                PhaseLog.note("found \(seed)")
                foundAt = (clock.now - start).seconds
            }
            guard case .failure(let found, _) = event, first == nil else { return }
            PhaseLog.note("report \(seed)")
            first = (found, (clock.now - start).seconds, cpuSeconds(children: false) - ownStart)
            stop = true
        }
        // The campaign has stopped and reaped its workers: their CPU time is the children's now.
        return first.map { ($0.found, $0.seconds, foundAt ?? $0.seconds, $0.ownCPU + cpuSeconds(children: true) - childrenStart) }
    }

    /// User and system CPU seconds of this process, or of its children that ended and were reaped.
    static func cpuSeconds(children: Bool) -> Double {
        let usage = usage(children: children)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The resources this process, or its children that ended and were reaped, used so far (`getrusage`).
    private static func usage(children: Bool) -> rusage {
        var usage = rusage()
        #if os(Linux)
        getrusage(Int32((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
        #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
        #endif
        return usage
    }

    package static func median(_ values: [Int]) -> Int { Int(median(values.map(Double.init))) }

    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The process's peak resident memory in bytes.
    package static func peakResidentBytes() -> Int {
        // `ru_maxrss` is in kilobytes on Linux, in bytes on Darwin.
        #if os(Linux)
        return Int(usage(children: false).ru_maxrss) * 1024
        #else
        return Int(usage(children: false).ru_maxrss)
        #endif
    }

    /// The process's current resident memory in bytes (Linux: /proc/self/statm; elsewhere the peak).
    package static func residentBytes() -> Int {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = text.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { return pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        #endif
        return peakResidentBytes()
    }
}
