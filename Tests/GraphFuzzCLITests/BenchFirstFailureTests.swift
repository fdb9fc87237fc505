import Foundation
import Testing

@Suite("bench --first-failure: each mutant run per seed until its first failure is shrunk and reported (built executable)")
struct BenchFirstFailureTests {
    /// The JSON object of one line.
    private func object(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("per seed: the cases up to the lowest failing case, the shrink attempts and the shrunk steps of the run's own first failure")
    func sameAsTheRun() throws {
        let mutant = "relate-before-insert"
        let bench = try graphFuzz(["bench", "--first-failure", "--mutant", mutant, "--seeds", "2", "--json"])
        #expect(bench.status == 0, "\(bench.stderr)")
        let events = try bench.stdout.split(separator: "\n").map(object)
        try #require(events.count == 1, "\(bench.stdout)")
        let event = events[0]
        #expect(event["event"] as? String == "bench-mutant" && event["target"] as? String == "graph" && event["mutant"] as? String == mutant)
        #expect(event["seeds"] as? Int == 2 && event["found"] as? Int == 2, "\(event)")
        let runs = try #require(event["runs"] as? [[String: Any]])
        #expect(runs.map { $0["seed"] as? Int } == [1, 2])
        for run in runs {
            let seed = try #require(run["seed"] as? Int)
            // The run's own report of its first failure (its lowest failing case is among the first few).
            let cli = try graphFuzz(["--mutant", mutant, "--seed", String(seed), "--runs", "40", "--no-save", "--json", "--quiet"])
            let failure = try #require(try cli.stdout.split(separator: "\n").map(object).first { $0["event"] as? String == "failure" }, "\(cli.stdout)")
            #expect(run["cases"] as? Int == (failure["case"] as? Int).map { $0 + 1 }, "seed \(seed): \(run) against \(failure)")
            #expect(run["shrinkAttempts"] as? Int == failure["shrinkAttempts"] as? Int, "seed \(seed)")
            #expect(run["steps"] as? Int == failure["steps"] as? Int, "seed \(seed)")
            #expect(run["originalSteps"] as? Int == failure["originalSteps"] as? Int, "seed \(seed)")
            #expect((run["seconds"] as? Double ?? 0) > 0)
            // The CPU time of the parent and its workers (each worker's start-up alone takes some).
            #expect((run["cpuSeconds"] as? Double ?? 0) > 0, "seed \(seed): \(run)")
        }
        let passes = try #require(event["passes"] as? [[String: Any]])
        let attempts = passes.compactMap { $0["attempts"] as? Int }.reduce(0, +)
        #expect(attempts == runs.compactMap { $0["shrinkAttempts"] as? Int }.reduce(0, +), "the passes' attempts add up to the shrinks'")
    }

    @Test("GRAPHFUZZ_PHASE_LOG: the bench and its workers log their phases, one clock for all, the shrink's attempts as reported")
    func phaseLog() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/phases"
        let bench = try graphFuzz(["bench", "--first-failure", "--mutant", "relate-before-insert", "--seeds", "1", "--json"],
                                  environment: ["GRAPHFUZZ_PHASE_LOG": log])
        #expect(bench.status == 0, "\(bench.stderr)")
        let run = try #require((try object(Substring(bench.stdout.split(separator: "\n")[0]))["runs"] as? [[String: Any]])?.first)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { line in
            let parts = line.split(separator: " ", maxSplits: 3)
            try #require(parts.count == 4 && Int(parts[0]) != nil && Double(parts[1]) != nil && Double(parts[2]) != nil, "\(line)")
            return (pid: Int(parts[0])!, ms: Double(parts[1])!, event: String(parts[3]))
        }
        let campaign = try #require(events.first { $0.event == "campaign 1" })
        let report = try #require(events.first { $0.event == "report 1" })
        #expect(report.pid == campaign.pid && report.ms > campaign.ms)
        let workers = Set(events.filter { $0.event == "serve" }.map(\.pid))
        #expect(!workers.isEmpty && !workers.contains(campaign.pid), "\(lines)")
        #if os(Linux)
        // The command line runs one thread (and its parent watch): its workers are forks of it, not new starts.
        #expect(Set(events.filter { $0.event == "forked" }.map(\.pid)) == workers, "\(lines)")
        #endif
        #expect(events.contains { workers.contains($0.pid) && $0.event.hasPrefix("batch 0 ") && $0.ms > campaign.ms })
        let attempts = try #require(run["shrinkAttempts"] as? Int)
        #expect(events.contains { workers.contains($0.pid) && $0.event.hasPrefix("shrink-end ") && $0.event.hasSuffix(" \(attempts)") && $0.ms < report.ms },
                "\(lines)")
    }

    @Test("the text table names the mutant with its columns; --passes adds where the shrink's attempts went")
    func table() throws {
        let text = try graphFuzz(["bench", "--first-failure", "--mutant", "relate-before-insert", "--seeds", "1", "--passes"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Mutants to their first shrunk failure (seeds 1–1"), "\(text.stdout)")
        #expect(text.stdout.contains("cases (median)") && text.stdout.contains("attempts (max)") && text.stdout.contains("steps (max)")
            && text.stdout.contains("CPU (median)") && text.stdout.contains("CPU (max)"))
        #expect(text.stdout.contains("relate-before-insert  1/1"), "\(text.stdout)")
        #expect(text.stdout.contains("shrink passes, graph/relate-before-insert, seeds 1–1") && text.stdout.contains("delete-steps"))
    }

    @Test("bad usage: exit 2 naming the flag", arguments: [
        (["bench", "--passes"], "--passes: only with --first-failure"),
        (["bench", "--mutant", "edition-nullify"], "--mutant: only with --first-failure"),
        (["bench", "--first-failure", "--mutant", "no-such"], "unknown mutant 'no-such'"),
        (["bench", "--first-failure", "--reach"], "give one"),
        (["bench", "--seeds", "3"], "--seeds: only with --reach or --first-failure"),
    ])
    func badUsage(arguments: [String], message: String) throws {
        let result = try graphFuzz(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
}
