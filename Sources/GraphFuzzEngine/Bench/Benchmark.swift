import Foundation
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
    package var medianSeconds: Double
    package var maxSeconds: Double
    package var medianSteps: Int
    package var maxSteps: Int
    package var medianShrinkAttempts: Int
}

/// Benchmarks: throughput per target, time to a shrunk failure per mutant, peak memory.
package enum Benchmark {
    /// Searches `mutant` with each seed to its first failure (`Campaign`, in this process) and summarises time to a
    /// shrunk failure and its size. A seed whose search can give no verdict (a harness fault) counts as not found.
    package static func mutant(_ target: Target, _ mutant: String, seeds: ClosedRange<UInt64>, runs: Int) -> MutantBenchmark {
        var seconds: [Double] = [], steps: [Int] = [], attempts: [Int] = []
        var misattributed: [(seed: UInt64, rule: String)] = []
        for seed in seeds {
            guard let found = try? Campaign.firstFailure(target, mutant: mutant, options: SearchOptions(seed: seed, runs: runs)).failures.first
            else { continue }
            if found.isMisattributed {
                misattributed.append((seed, found.failure.rule))
                continue
            }
            seconds.append(found.seconds)
            steps.append(found.counterexample?.steps.count ?? 0)
            attempts.append(found.shrink.attempts)
        }
        return MutantBenchmark(mutant: mutant, seeds: seeds.count, found: seconds.count, misattributed: misattributed,
                               medianSeconds: median(seconds), maxSeconds: seconds.max() ?? 0,
                               medianSteps: Int(median(steps.map(Double.init))), maxSteps: steps.max() ?? 0,
                               medianShrinkAttempts: Int(median(attempts.map(Double.init))))
    }

    package static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The process's peak resident memory in bytes.
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
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
