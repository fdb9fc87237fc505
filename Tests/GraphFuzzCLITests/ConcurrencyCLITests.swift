import Foundation
import Testing

/// A concurrency mutant on the command line: found, shrunk to two concurrent branches with the interleaving
/// printed, and one report whatever the run: the same seed twice, one worker or two.
@Suite("concurrency on the command line")
struct ConcurrencyCLITests {
    /// Each concurrency mutant with the target that finds it and a budget just past the case seed 1 finds it at
    /// (`cache-reentrant-read` case 23, `enrichment-duplicate-work` case 25, `background-stale-model` case 222,
    /// `cancelled-refresh-leaves-change` case 151; the default budget is 2,000).
    static let mutants = [("cache", "cache-reentrant-read", "30"), ("mapper", "enrichment-duplicate-work", "30"),
                          ("graph", "background-stale-model", "230"), ("graph", "cancelled-refresh-leaves-change", "160")]

    @Test("a concurrency mutant at seed 1: two branches and their interleaving, one report at --jobs 1 twice and --jobs 2",
          arguments: mutants)
    func concurrencyMutantReport(target: String, mutant: String, runs: String) throws {
        let base = ["--target", target, "--mutant", mutant, "--seed", "1", "--runs", runs, "--no-save", "--quiet"]
        let reports = try [["--jobs", "1"], ["--jobs", "1"], ["--jobs", "2"]].map { mode in
            let result = try graphFuzz(base + mode)
            #expect(result.status == 1, "\(mode): \(result.stderr)")
            return maskingTimings(result.stdout)
        }
        let report = reports[0]
        #expect(report.contains("FAILURE \(target) (mutant \(mutant))"), "\(report)")
        #expect(report.contains("concurrently(A: "), "\(report)")
        #expect(!report.contains(", C: "), "more than two branches: \(report)")
        #expect(report.contains("interleaving:"), "\(report)")
        #expect(reports[1] == report, "the same seed twice")
        #expect(reports[2] == report, "--jobs 2 against --jobs 1")
    }
}
