import Foundation
import Testing

/// A report's `reproduce:` line reruns exactly its case (`--case`), every mode prints the same report, and the
/// false failures of production code stay gone — each through the built executable.
@Suite("reproduce lines, --case and one report in every mode (built executable)")
struct ReproduceTests {
    /// The failure block of a report (from `FAILURE` to the Swift test), timings masked and the saved path dropped.
    private static func failureBlocks(_ stdout: String) -> [String] {
        let blocks = stdout.components(separatedBy: "\nFAILURE ").dropFirst()
        return blocks.map { block in
            maskingTimings(block.components(separatedBy: "\ntarget ").first ?? block)
                .split(separator: "\n").filter { !$0.hasPrefix("  saved: ") }.joined(separator: "\n")
        }
    }

    @Test("the reproduce line, run as printed, prints the same failure, and the case it saves replays to the same rule and kind",
          arguments: [
              (["--mutant", "edition-nullify", "--seed", "1", "--runs", "500"], ""),
              (["--mutant", "link-before-parent", "--seed", "1", "--runs", "4", "--steps", "40"], " --steps 40"),
              (["--mutant", "contains-reads-disk", "--seed", "1", "--runs", "7"], ""),
              (["--mutant", "forgot-cache-eviction", "--seed", "1", "--runs", "7"], ""),
          ])
    func reproduceLine(_ arguments: [String], _ stepsFlag: String) throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try graphFuzz(arguments + ["--no-save"], in: folder)
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  reproduce: graph-fuzz ") })
        let command = line.dropFirst("  reproduce: graph-fuzz ".count).split(separator: " ").map(String.init)
        #expect(command.contains("--case") && command.contains("--mutant") && !command.contains("--runs"))
        #expect(line.hasSuffix("\(stepsFlag) --mutant \(arguments[1])"), "\(line)")
        let again = try graphFuzz(command, in: folder)
        #expect(again.status == 1, "stderr: \(again.stderr)")
        let first = try #require(Self.failureBlocks(run.stdout).first)
        #expect(Self.failureBlocks(again.stdout) == [first])
        // The case the reproduction saved (`Corpus/` of its folder) replays to the rule and kind it reported.
        let heading = try #require(first.split(separator: "\n").first)   // "graph (mutant …) — rule B4, mismatch"
        let ruleAndKind = try #require(heading.components(separatedBy: " — rule ").last).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let replay = try graphFuzz(["replay", "Corpus", "--json"], in: folder)
        #expect(replay.status == 0, "stdout: \(replay.stdout) stderr: \(replay.stderr)")
        let event = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        #expect(event["outcome"] as? String == "pass")   // production passes, the mutant fails with the case's rule
        #expect(event["rule"] as? String == ruleAndKind[0])
        let saved = try String(contentsOfFile: folder + "/" + (event["file"] as? String ?? ""), encoding: .utf8)
        #expect(saved.contains("\nkind: \(ruleAndKind[1])\n"))
    }

    @Test("--case needs a seed, runs one case, and takes no other budget", arguments: [
        (["--case", "3"], "--case: needs --seed"),
        (["--case", "3", "--seed", "1", "--runs", "10"], "--case: runs one case, so --runs cannot be given with it"),
        (["--case", "3", "--seed", "1", "--shard", "1/2"], "--case: runs one case, so --shard cannot be given with it"),
        (["--case", "-1", "--seed", "1"], "--case: '-1' is not a non-negative integer"),
        (["--case", "1000000000000", "--seed", "1"], "--case: '1000000000000' is out of range (0–999999999999)"),
    ])
    func caseUsage(_ arguments: [String], _ message: String) throws {
        let result = try graphFuzz(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// The shrunk false failures of production: a killed save whose save traps (graph G26, seed 6 case 6435) and
    /// crossed moves that tied (sync S4, seed 13 case 181542). Each case alone, as a run of the seed meets it.
    @Test("production passes the cases that failed it falsely", arguments: [
        ["--target", "graph", "--seed", "6", "--case", "6435"],
        ["--target", "graph", "--seed", "3", "--case", "33943"],
        ["--target", "sync", "--seed", "13", "--case", "181542"],
        ["--target", "sync", "--seed", "15", "--case", "194319"],
    ])
    func falseFailuresGone(_ arguments: [String]) throws {
        let result = try graphFuzz(arguments + ["--no-save"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.range(of: #"\n(graph|sync) +- +1 +[0-9]+ +pass "#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    /// In process and in workers, at one job or two, the shrink runs the same candidates: a candidate that finished
    /// in a worker runs again here, so the shrinker learns what it consumed either way (before, the workers'
    /// shrinks made more attempts: 61 against 52 for relate-before-insert's case 0).
    @Test("one seed prints byte-identical reports in process and in workers at one and two jobs", arguments: [
        ["--mutant", "relate-before-insert", "--seed", "1", "--runs", "12"],
        ["--mutant", "store-eager-delete-rules", "--seed", "1", "--runs", "1"],
        ["--mutant", "cache-stores-objects", "--seed", "1", "--runs", "3"],
        ["--mutant", "forgot-cache-eviction", "--seed", "1", "--runs", "7"],
        ["--mutant", "cleanup-deletes-fresh", "--seed", "1", "--runs", "2"],
        ["--mutant", "seed-description-keys", "--seed", "1", "--runs", "2"],
        ["--mutant", "blob-storage", "--seed", "1", "--runs", "1"],
        ["--mutant", "link-before-parent", "--seed", "1", "--runs", "4"],
        ["--mutant", "queue-off-by-one", "--seed", "1", "--runs", "2"],
    ])
    func sameReportInEveryMode(_ arguments: [String]) throws {
        let base = arguments + ["--no-save", "--quiet"]
        let reports = try [["--in-process"], ["--jobs", "1"], ["--jobs", "2"]].map { mode in
            let result = try graphFuzz(base + mode)
            #expect(result.status == 1, "\(mode): \(result.stderr)")
            return maskingTimings(result.stdout)
        }
        #expect(reports[0].contains("FAILURE "))
        #expect(reports[1] == reports[0], "--jobs 1 against --in-process")
        #expect(reports[2] == reports[0], "--jobs 2 against --in-process")
    }
}
