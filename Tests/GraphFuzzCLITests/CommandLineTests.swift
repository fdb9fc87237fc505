import Foundation
import GraphFuzzCLI
import Testing

@Suite("graph-fuzz command line (built executable)")
struct CommandLineTests {
    @Test("production code passes and the seed is printed first")
    func productionRun() throws {
        let result = try graphFuzz(["--target", "queue", "--seed", "1", "--no-save"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("graph-fuzz: seed 1\n"))
        #expect(result.stdout.contains("queue   -"))
    }

    @Test("a mutant is found, shrunk, reported with a Swift test, and exits 1")
    func mutantRun() throws {
        let result = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--no-save"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAILURE queue (mutant queue-off-by-one) — rule Q1, mismatch"))
        #expect(result.stdout.contains("shrunk 3 → 2 steps"))
        #expect(result.stdout.contains("#expect(queue.push(0) == false)"))
    }

    @Test("JSON Lines carry exactly the documented keys, in order")
    func jsonKeys() throws {
        // In process, as in workers, the search goes on to the end: one failure group, then a
        // coverage event per rule, then the summary.
        let result = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--json", "--no-save", "--in-process"])
        #expect(result.status == 1)
        let all = result.stdout.split(separator: "\n")
        let coverage = all.filter { $0.contains(#""event":"coverage""#) }
        #expect(coverage.count == 3)
        #expect(coverage.first?.hasPrefix(#"{"event":"coverage","target":"queue","rule":"Q1","decided":"#) == true)
        let lines = all.filter { !$0.contains(#""event":"coverage""#) }
        #expect(lines.count == 3)
        // As README and --help say: the coverage events come before the target's summary, its last event.
        #expect(all.last?.hasPrefix(#"{"event":"summary""#) == true, "\(all)")
        // The failure found, before its shrink: the case and rule its report names next.
        let found = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(found.keys) == ["event", "target", "mutant", "seed", "case", "rule", "kind", "step", "message", "secondsToFound", "reproduce"])
        #expect(found["event"] as? String == "found")
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(found["case"] as? Int == failure["case"] as? Int && found["rule"] as? String == "Q1")
        #expect(found["reproduce"] as? String == "graph-fuzz --target queue --seed 1 --case \(failure["case"] as? Int ?? -1) --mutant queue-off-by-one")
        #expect((found["secondsToFound"] as? Double ?? .infinity) <= (failure["secondsToFailure"] as? Double ?? 0))
        #expect(Set(failure.keys) == ["event", "target", "mutant", "seed", "case", "rule", "kind", "message", "steps",
                                      "originalSteps", "shrinkAttempts", "shrinkInterrupted", "secondsToFailure", "counterexample", "swift",
                                      "corpusFile"])
        #expect(failure["shrinkInterrupted"] as? Bool == false)
        #expect(failure["event"] as? String == "failure")
        #expect(failure["rule"] as? String == "Q1")
        #expect(failure["steps"] as? Int == 2)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any])
        #expect(Set(summary.keys) == ["event", "target", "mutant", "seed", "cases", "steps", "seconds", "stepsPerSecond", "failures"])
        #expect(lines[2].hasPrefix(#"{"event":"summary","target":"queue","mutant":"queue-off-by-one","seed":1,"cases":2000,"#))
    }

    @Test("each failure's time to find and shrink is the wall clock to its report, also when workers shrank it")
    func failureTimes() throws {
        // Workers (the default) shrink where a case failed while the other worker searches on: four signatures.
        let result = try graphFuzz(["--mutant", "cache-stores-objects", "--seed", "9", "--runs", "40", "--json", "--no-save"])
        #expect(result.status == 1)
        let events = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let times = events.filter { $0["event"] as? String == "failure" }.compactMap { $0["secondsToFailure"] as? Double }
        let total = try #require(events.first { $0["event"] as? String == "summary" }?["seconds"] as? Double)
        #expect(times.count > 1)
        #expect(times.allSatisfy { $0 > 0 && $0 <= total }, "\(times), summary \(total)")
        #expect(times == times.sorted(), "reported in order, each later than the one before")
        // Each failure is told as found before its shrink, in the same order: a found event, then its failure.
        let told = events.compactMap { event -> (String, Int, Double)? in
            guard let kind = event["event"] as? String, kind == "found" || kind == "failure", let index = event["case"] as? Int,
                  let seconds = (event["secondsToFound"] ?? event["secondsToFailure"]) as? Double else { return nil }
            return (kind, index, seconds)
        }
        #expect(told.map(\.0) == Array(repeating: ["found", "failure"], count: times.count).flatMap { $0 })
        for pair in stride(from: 0, to: told.count - 1, by: 2) {
            #expect(told[pair].1 == told[pair + 1].1 && told[pair].2 <= told[pair + 1].2, "\(told)")
        }
    }

    @Test("the same seed twice prints byte-identical reports apart from timings")
    func deterministicReports() throws {
        for arguments in [["--seed", "7", "--runs", "500", "--no-save"], ["--mutant", "queue-off-by-one", "--seed", "3", "--no-save"],
                          ["--mutant", "queue-off-by-one", "--seed", "3", "--no-save", "--json"]] {
            let a = try graphFuzz(arguments), b = try graphFuzz(arguments)
            #expect(a.status == b.status)
            #expect(maskingTimings(a.stdout) == maskingTimings(b.stdout))
            #expect(a.stdout.count > 100)
        }
    }

    @Test("bad flags and values exit 2 with a message naming the problem", arguments: [
        (["--runs", "-1"], "--runs: '-1' is not a positive integer"),
        (["--seed", "x"], "--seed: 'x' is not a non-negative integer"),
        (["--target", "nope"], "--target: unknown target 'nope'"),
        (["--mutant", "nope"], "--mutant: unknown mutant 'nope'"),
        (["--steps"], "--steps needs a value"),
        (["--time", "0"], "--time: '0' is not a positive number of seconds"),
        (["--frobnicate"], "unknown flag '--frobnicate'"),
    ])
    func badUsage(_ arguments: [String], _ message: String) throws {
        let result = try graphFuzz(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a path that is not what the command needs is named with what it is", arguments: [
        (["replay", "/dev/null"], "/dev/null: not a corpus case: a character device, not a regular file"),
        (["export-seeds", "--out", "FILE"], "export-seeds: --out FILE is a file, not a folder (nothing written)"),
        (["export-seeds", "--out", "FILE/sub"], "FILE: cannot use it as a folder: Not a directory"),
    ])
    func pathsNamed(_ arguments: [String], _ message: String) throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a-file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try graphFuzz(arguments.map { $0.replacingOccurrences(of: "FILE", with: file) })
        #expect(result.status == 2)
        #expect(result.stderr.contains(message.replacingOccurrences(of: "FILE", with: file)), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("permission") && !result.stderr.contains("NSCocoaErrorDomain"), "stderr: \(result.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
    }

    @Test("list --json names every target, mutant with its rule, and rule")
    func listJSON() throws {
        let result = try graphFuzz(["list", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"{"event":"target","target":"queue"}"#))
        #expect(result.stdout.contains(#"{"event":"mutant","target":"queue","mutant":"queue-off-by-one","rule":"Q1","rules":["Q1"]}"#))
        #expect(result.stdout.contains(#"{"event":"rule","rule":"Q1","#))
    }

    @Test("--help and --version exit 0")
    func helpAndVersion() throws {
        #expect(try graphFuzz(["--help"]).stdout.contains("graph-fuzz replay [FILE|DIR ...]"))
        #expect(try graphFuzz(["--version"]).stdout == "graph-fuzz \(GraphFuzzCommand.version)\n")
    }

    @Test("COMMAND --help prints that command's help alone and exits 0; --help among a command's other arguments is still bad usage")
    func commandHelp() throws {
        let commands = ["replay", "list", "export-tests", "import-crash", "export-seeds", "bench", "coverage"]
        for command in commands {
            let result = try graphFuzz([command, "--help"])
            #expect(result.status == 0, "\(command) --help exited \(result.status)")
            #expect(result.stdout.hasPrefix("graph-fuzz \(command): "), "\(command) --help: \(result.stdout)")
            #expect(result.stdout.contains("USAGE\n  graph-fuzz \(command) "), "\(command) --help: \(result.stdout)")
            for other in commands where other != command {
                #expect(!result.stdout.contains("graph-fuzz \(other) "), "\(command) --help shows \(other): \(result.stdout)")
            }
            #expect(!result.stdout.contains("--no-save") && !result.stdout.contains("EXIT CODES"), "\(command) --help: \(result.stdout)")
        }
        #expect(try graphFuzz(["coverage", "--runs", "5", "--help"]).status == 2)
    }

    @Test("--flag=value is read as --flag value, for every flag of every command")
    func attachedValues() throws {
        let spaced = try graphFuzz(["--target", "queue", "--seed", "3", "--runs", "40", "--steps", "12", "--in-process", "--no-save"])
        let attached = try graphFuzz(["--target=queue", "--seed=3", "--runs=40", "--steps=12", "--in-process", "--no-save"])
        #expect(attached.status == 0, "\(attached.stderr)")
        #expect(maskingTimings(attached.stdout) == maskingTimings(spaced.stdout))
        let file = Package.corpus + "/" + (corpusFiles.first { $0.hasPrefix("queue-") } ?? "")
        let replay = try graphFuzz(["replay", "--case-timeout=5", file])
        #expect(replay.status == 0 && replay.stdout.contains("1 passed"), "\(replay.stdout)\(replay.stderr)")
        let coverage = try graphFuzz(["coverage", "--target=queue", "--runs=50", "--seed=1"])
        #expect(coverage.stdout == (try graphFuzz(["coverage", "--target", "queue", "--runs", "50", "--seed", "1"])).stdout)
    }

    @Test("--in-process with --jobs says it ignores --jobs")
    func inProcessIgnoresJobs() throws {
        let result = try graphFuzz(["--target", "queue", "--seed", "1", "--runs", "5", "--in-process", "--jobs", "2", "--no-save"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("note: --in-process runs every case in this process: --jobs 2 is ignored"), "\(result.stderr)")
    }
}
