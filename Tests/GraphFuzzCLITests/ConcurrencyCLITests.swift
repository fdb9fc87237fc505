import Foundation
import Testing

/// A concurrency mutant on the command line: found, shrunk to two concurrent branches with the interleaving
/// printed, and one report whatever the run: the same seed twice, one worker or two.
@Suite("concurrency on the command line")
struct ConcurrencyCLITests {
    /// Seed 1 finds `cache-reentrant-read` at case 23 (the default budget is 2,000).
    static let runs = "30"

    @Test("cache-reentrant-read at seed 1: two branches and their interleaving, one report at --jobs 1 twice and --jobs 2")
    func reentrantReadReport() throws {
        let base = ["--target", "cache", "--mutant", "cache-reentrant-read", "--seed", "1", "--runs", Self.runs, "--no-save", "--quiet"]
        let reports = try [["--jobs", "1"], ["--jobs", "1"], ["--jobs", "2"]].map { mode in
            let result = try graphFuzz(base + mode)
            #expect(result.status == 1, "\(mode): \(result.stderr)")
            return maskingTimings(result.stdout)
        }
        let report = reports[0]
        #expect(report.contains("FAILURE cache (mutant cache-reentrant-read)"), "\(report)")
        #expect(report.contains("concurrently(A: "), "\(report)")
        #expect(!report.contains(", C: "), "more than two branches: \(report)")
        #expect(report.contains("interleaving:"), "\(report)")
        #expect(reports[1] == report, "the same seed twice")
        #expect(reports[2] == report, "--jobs 2 against --jobs 1")
    }
}
