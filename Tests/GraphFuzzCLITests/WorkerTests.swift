import Foundation
import GraphFuzzCLI
import Testing

/// Runs the built `graph-fuzz-planted`: `graph-fuzz` with the test-only `planted` target registered.
private func graphFuzzPlanted(_ arguments: [String]) throws -> ProcessResult {
    try graphFuzz(arguments, executable: Package.plantedExecutable)
}

/// The JSON events of `text`, without the `coverage` events (one per rule, checked in CommandLineTests).
private func jsonObjects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").filter { !$0.contains(#""event":"coverage""#) }.map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

@Suite("worker processes: crashes, hangs, grouping, --jobs, --shard (built executable)")
struct WorkerTests {
    /// The planted target's real trap and real infinite loop, each found once, shrunk to its
    /// minimum, saved, replayed in a worker, and the same with one worker as with two.
    @Test("a real trap and a real infinite loop are each reported once, shrunk, saved and replayed")
    func plantedFaults() throws {
        let corpus = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let common = ["--target", "planted", "--seed", "1", "--runs", "40", "--case-timeout", "0.2"]

        let json = try graphFuzzPlanted(common + ["--jobs", "2", "--json", "--corpus", corpus])
        #expect(json.status == 1, "stderr: \(json.stderr)")
        let events = try jsonObjects(json.stdout)
        let failures = events.filter { $0["event"] as? String == "failure" }
        #expect(failures.map { $0["kind"] as? String } == ["crash", "hang"])
        let crash = try #require(failures.first { $0["kind"] as? String == "crash" })
        let hang = try #require(failures.first { $0["kind"] as? String == "hang" })
        #expect(crash["rule"] as? String == "crash")
        #expect((crash["message"] as? String)?.contains("SIGILL: Fatal error: Index out of range") == true)
        #expect(crash["steps"] as? Int == 2)
        #expect(crash["counterexample"] as? [String] == ["1. append(value: 0)    // done [P1]", "2. element(at: 1)    // nil [P2]"])
        #expect(hang["steps"] as? Int == 3)
        #expect(hang["counterexample"] as? [String] == ["1. append(value: 0)    // done [P1]",
                                                         "2. append(value: 0)    // done [P1]", "3. rotate(by: 1)    // done [P3]"])
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["cases"] as? Int == 40)
        #expect(summary["failures"] as? Int == 2)

        // Both saved; replaying them runs each in a worker: production code still crashes and hangs.
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".case") }.sorted()
        #expect(files.count == 2)
        #expect(files.first?.hasPrefix("planted-crash-") == true)
        #expect(files.last?.hasPrefix("planted-hang-") == true)
        let savedText = try String(contentsOfFile: corpus + "/" + files[0], encoding: .utf8)
        #expect(savedText.contains("kind: crash"))
        let replay = try graphFuzzPlanted(["replay", corpus, "--case-timeout", "0.2"])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("production code fails crash (crash): the worker died of SIGILL: Fatal error: Index out of range"))
        #expect(replay.stdout.contains("production code fails hang (hang)"))
        #expect(replay.stdout.hasSuffix("0 passed, 2 failed, 0 malformed\n"))

        // One worker finds the same failures, shrunk the same, with counts, and prints its summary.
        let text = try graphFuzzPlanted(common + ["--jobs", "1", "--no-save"])
        #expect(text.status == 1)
        #expect(text.stdout.components(separatedBy: "FAILURE planted — rule crash, crash").count == 2)
        #expect(text.stdout.components(separatedBy: "FAILURE planted — rule hang, hang").count == 2)
        for failure in failures {
            #expect(text.stdout.contains("seed 1, case \(failure["case"] as? Int ?? -1): shrunk"))
            for line in failure["counterexample"] as? [String] ?? [] { #expect(text.stdout.contains("    \(line)\n")) }
        }
        // The summary row names both failures (their order follows the lowest failing case of each).
        #expect(text.stdout.contains("hang hang ×") && text.stdout.contains("crash crash ×"))
        #expect(text.stdout.contains("FAIL hang hang ×") || text.stdout.contains("FAIL crash crash ×"))
        #expect(text.stdout.contains("planted  -       40"))
        // Each reproduction fails on the code that failed, and says how.
        #expect(text.stdout.contains("// Its last step traps on the code that failed"))
        #expect(text.stdout.contains("#expect(buffer.element(at: 1) == nil)  // P2"))
        #expect(text.stdout.contains("// Its last step never returns on the code that failed."))
    }

    @Test("worker mode finds and shrinks the queue mutant as in-process does, and both go on to the end")
    func queueMutantInWorkers() throws {
        let arguments = ["--mutant", "queue-off-by-one", "--seed", "1", "--json", "--no-save", "--runs", "200"]
        // The failure found (before its shrink) is told the same way too, then left out: the failure and the summary.
        let foundEvents = { (events: [[String: Any]]) in events.filter { $0["event"] as? String == "found" }.map { "\($0["case"] ?? "")" } }
        let allWorkers = try jsonObjects(try graphFuzz(arguments + ["--jobs", "2"]).stdout)
        let allInProcess = try jsonObjects(try graphFuzz(arguments + ["--in-process"]).stdout)
        #expect(foundEvents(allWorkers).count == 1 && foundEvents(allWorkers) == foundEvents(allInProcess))
        let workers = allWorkers.filter { $0["event"] as? String != "found" }
        let inProcess = allInProcess.filter { $0["event"] as? String != "found" }
        #expect(workers.count == 2)
        #expect(workers.first?["counterexample"] as? [String] == inProcess.first?["counterexample"] as? [String])
        #expect(workers.first?["case"] as? Int == inProcess.first?["case"] as? Int)
        #expect(workers.first?["steps"] as? Int == 2)
        #expect(workers.last?["cases"] as? Int == 200)
        #expect(inProcess.last?["cases"] as? Int == 200)
        #expect(inProcess.count == 2)
    }

    @Test("--shard I/N slices cover the run's cases without overlap, in workers and in process")
    func shards() throws {
        for mode in [["--jobs", "2"], ["--in-process"]] {
            var total = 0
            for shard in ["1/3", "2/3", "3/3"] {
                let result = try graphFuzz(["--target", "queue", "--seed", "5", "--runs", "100", "--json", "--no-save", "--shard", shard] + mode)
                #expect(result.status == 0)
                total += try jsonObjects(result.stdout).last?["cases"] as? Int ?? 0
            }
            #expect(total == 100)
        }
    }

    @Test("bad worker flags exit 2 naming the flag", arguments: [
        (["--shard", "0/2"], "--shard: '0/2' is not I/N"),
        (["--shard", "3/2"], "--shard: '3/2' is not I/N"),
        (["--shard", "x"], "--shard: 'x' is not I/N"),
        (["--jobs", "0"], "--jobs: '0' is not a positive integer"),
        (["--case-timeout", "-1"], "--case-timeout: '-1' is not a positive number of seconds"),
        (["worker", "--target", "queue", "--steps", "5", "--shrink", "10,x,-"], "worker: --shrink: '10,x,-' is not ATTEMPTS,STALL,SECONDS"),
    ])
    func badUsage(_ arguments: [String], _ message: String) throws {
        let result = try graphFuzz(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test("graph-fuzz holds no planted target, whatever its environment; graph-fuzz-planted does")
    func plantedIsHidden() throws {
        #expect(!(try graphFuzz(["list"]).stdout.contains("planted")))
        #expect(!(try graphFuzz(["list"], environment: ["GRAPH_FUZZ_PLANTED_TARGETS": "1"]).stdout.contains("planted")))
        #expect(try graphFuzzPlanted(["list"]).stdout.contains("target planted"))
    }
}

@Suite("a shrink in a search worker that a candidate takes down (built executable)")
struct BatchShrinkDeathTests {
    /// `planted-divider`'s wrong quotient for 7 is shrunk by the search worker that met it; zeroing a step divides by
    /// zero and takes that worker down. The death is the shrink's, and said so; the failure is reported and shrunk.
    @Test("the note names the shrink, not the case; the wrong answer is still found and shrunk to one step")
    func deathWhileShrinking() throws {
        let result = try graphFuzzPlanted(["--target", "planted-divider", "--seed", "1", "--runs", "60", "--jobs", "1", "--no-save"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("while it shrank the failure of case"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("one of the shrink's candidates did, not the case"), "stderr: \(result.stderr)")
        #expect(result.stdout.contains("rule D1"), "\(result.stdout)")
        #expect(result.stdout.contains("divide(divisor: 7)"), "\(result.stdout)")
    }
}
