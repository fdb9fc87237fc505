import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `graph-fuzz` process started in the background, with its output collected in files.
private final class Background {
    let process = Process()
    let folder = temporaryFolder()
    var stdoutPath: String { folder + "/stdout" }
    var stderrPath: String { folder + "/stderr" }

    init(_ arguments: [String], executable: String = Package.executable, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Package.root)
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["GRAPH_FUZZ_EXIT_WITH_PARENT": "1", "TMPDIR": folder + "/tmp/"].merging(environment) { $1 }) { $1 }
        try FileManager.default.createDirectory(atPath: folder + "/tmp", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The worker processes (children) running now.
    var workers: [pid_t] { childProcesses(of: process.processIdentifier) }

    /// Waits (at most `seconds`) until `condition` holds.
    func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    func finish() -> ProcessResult {
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
                             stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }

    /// Files left in the run's temporary folder (its TMPDIR).
    var temporaryFiles: [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder + "/tmp").sorted()) ?? [] }
}

/// The children of `pid` (from /proc on Linux, `pgrep -P` elsewhere).
func childProcesses(of pid: pid_t) -> [pid_t] {
    let path = "/proc/\(pid)/task/\(pid)/children"
    if let text = try? String(contentsOfFile: path, encoding: .utf8) {
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    guard let result = try? graphFuzz(["-P", String(pid)], executable: "/usr/bin/pgrep") else { return [] }
    return result.stdout.split(separator: "\n").compactMap { pid_t($0) }
}

/// True while `pid` runs (a zombie waiting for its parent to reap it does not run).
func isRunning(_ pid: pid_t) -> Bool {
    if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) {
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
    return kill(pid, 0) == 0
}

@Suite("a run's life: killed workers, slow cases, signals, progress (built executable)")
struct RunLifecycleTests {
    @Test("a worker killed from outside is not a crash of the code under test: its case runs again, the run passes")
    func externalKill() throws {
        let run = try Background(["--target", "queue", "--seed", "1", "--runs", "100000000", "--time", "2", "--jobs", "2", "--no-save"])
        #expect(run.wait(upTo: 10) { !run.workers.isEmpty })
        usleep(300_000)
        let victim = try #require(run.workers.first)
        kill(victim, SIGKILL)
        let result = run.finish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("FAILURE"))
        #expect(result.stderr.contains("a worker died of SIGKILL"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("not a failure of the code under test"))
    }

    @Test("workers that keep dying without a reproducing case are an infrastructure error, exit 3")
    func workersKeepDying() throws {
        let run = try Background(["--target", "queue", "--seed", "1", "--runs", "100000000", "--time", "30", "--jobs", "2", "--no-save"])
        #expect(run.wait(upTo: 10) { !run.workers.isEmpty })
        let deadline = Date().addingTimeInterval(30)
        while run.process.isRunning && Date() < deadline {
            for worker in run.workers { kill(worker, SIGKILL) }
        }
        let result = run.finish()
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("infrastructure error: workers keep dying without a reproducing case")
                || result.stderr.contains("died in a row"), "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("FAILURE"))
    }

    @Test("a slow case is not a hang: run again, it keeps finishing steps, and the report says it was slow")
    func slowIsNotHung() throws {
        // Seed 1's two mapper cases at this step cap are about 1,700 steps each: 0.2–0.35 s in a debug build on a
        // quiet machine, two to three times the timeout. (Queue cases were used until the chunk runner made their
        // steps so cheap that a case no longer always outlasted 0.1 s.)
        let result = try graphFuzz(["--target", "mapper", "--seed", "1", "--runs", "2", "--steps", "3000", "--case-timeout", "0.1",
                                    "--jobs", "1", "--no-save"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("hang"))
        #expect(result.stderr.contains("is slow, not stuck"), "stderr: \(result.stderr)")
    }

    @Test("the summary's time is wall time: the re-runs of slow cases count (steps that sleep give a lower bound)")
    func summaryIsWallTime() throws {
        // Each step sleeps 40 ms: cases of three steps or more outlast the 0.1 s timeout and run again alone.
        let result = try graphFuzz(["--target", "planted-slow", "--seed", "1", "--runs", "4", "--case-timeout", "0.1", "--jobs", "1", "--no-save"],
                                   executable: Package.plantedExecutable, environment: ["GRAPH_FUZZ_PLANTED_STEP_MS": "40"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("is slow, not stuck"), "no case was run again: \(result.stderr)")
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("planted-slow ") }, "\(result.stdout)")
        let columns = row.split(separator: " ")
        let steps = try #require(Int(columns[3]), "\(row)")
        let seconds = try #require(Double(columns[5].dropLast()), "\(row)")
        // Every step counted slept 40 ms, one after another (one worker): the run took at least that long.
        #expect(steps > 0 && seconds >= Double(steps) * 0.040, "\(row): \(steps) steps of 40 ms each")
    }

    @Test("a case runs once: the search's cases, each failure's lowest case, its shrink candidates and its shrunk case described, in a worker as in process")
    func eachCaseRunsOnce() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (index, mode) in [["--in-process"], ["--jobs", "1"], ["--jobs", "2"]].enumerated() {
            // Every case the planted machine makes appends a line to the log, in whichever process it runs.
            let log = folder + "/cases-\(index)"
            let result = try graphFuzz(["--mutant", "planted-slow-wraps", "--seed", "1", "--runs", "6", "--no-save", "--json"] + mode,
                                       executable: Package.plantedExecutable,
                                       environment: ["GRAPH_FUZZ_PLANTED_STEP_MS": "0", "GRAPH_FUZZ_PLANTED_LOG": log])
            #expect(result.status == 1, "\(mode): \(result.stdout)\(result.stderr)")
            let events = try result.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            let attempts = events.filter { $0["event"] as? String == "failure" }.compactMap { $0["shrinkAttempts"] as? Int }
            let cases = try #require(events.first { $0["event"] as? String == "summary" }?["cases"] as? Int)
            let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").count
            #expect(!attempts.isEmpty && cases == 6)
            // Each search case once, and per failure: its lowest case, each candidate, the shrunk case recorded. With
            // several workers, each shrinks the first failure of a signature it meets where it ran it, so a worker whose
            // failure was not its group's lowest made a shrink of its own too (in parallel): more runs, never fewer.
            let once = cases + attempts.reduce(0) { $0 + $1 + 2 }
            if mode == ["--jobs", "2"] {
                #expect(runs >= once, "\(mode): \(runs) runs for \(cases) cases and shrinks of \(attempts) attempts")
            } else {
                #expect(runs == once, "\(mode): \(runs) runs for \(cases) cases and shrinks of \(attempts) attempts")
            }
        }
    }

    @Test("a case run again after a timeout keeps its coverage, and so do the cases its worker had finished: counts as in process")
    func coverageSurvivesTimeouts() throws {
        // Each step sleeps 40 ms: cases of three steps or more outlast the 0.1 s timeout, their worker is killed and
        // they run again alone.
        func run(_ mode: [String]) throws -> (stdout: String, coverage: [String], summary: [String: Int]) {
            let result = try graphFuzz(["--target", "planted-slow", "--seed", "1", "--runs", "4", "--no-save", "--json"] + mode,
                                       executable: Package.plantedExecutable, environment: ["GRAPH_FUZZ_PLANTED_STEP_MS": "40"])
            #expect(result.status == 0, "\(mode): \(result.stdout)\(result.stderr)")
            let events = try result.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            let coverage = events.filter { $0["event"] as? String == "coverage" }.map { "\($0["rule"] ?? "") \($0["decided"] ?? "")" }
            let summary = events.first { $0["event"] as? String == "summary" } ?? [:]
            return (result.stdout + result.stderr, coverage, ["cases": summary["cases"] as? Int ?? -1, "steps": summary["steps"] as? Int ?? -1])
        }
        let inProcess = try run(["--in-process"])
        let timedOut = try run(["--case-timeout", "0.1", "--jobs", "1"])
        #expect(timedOut.stdout.contains("is slow, not stuck"), "no case was run again: \(timedOut.stdout)")
        #expect(!timedOut.stdout.contains("never exercised"), "\(timedOut.stdout)")
        #expect(timedOut.coverage == inProcess.coverage)
        #expect(timedOut.summary == inProcess.summary)
        #expect(inProcess.coverage.count == 1 && inProcess.coverage[0] != "W1 0", "\(inProcess.coverage)")
    }

    @Test("SIGINT while shrinking: the report and JSON say so, the case is saved marked, and the next run replaces it (one file per failure)")
    func interruptedShrink() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = folder + "/corpus", log = folder + "/cases"
        let arguments = ["--mutant", "planted-slow-wraps", "--seed", "1", "--runs", "1", "--steps", "40", "--corpus", corpus]
        func startedCases() -> Int { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count }
        func saved() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).filter { $0.hasSuffix(".case") } }
        func failureEvent(_ output: String) throws -> [String: Any] {
            let line = try #require(output.split(separator: "\n").first { $0.contains(#""event":"failure""#) }, "\(output)")
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        /// Runs until the shrink has started (the run's one case failed; the cases after it are the shrink's), then SIGINT.
        func interrupted(_ extra: [String]) throws -> ProcessResult {
            try? FileManager.default.removeItem(atPath: log)
            let run = try Background(arguments + extra, executable: Package.plantedExecutable,
                                     environment: ["GRAPH_FUZZ_PLANTED_STEP_MS": "20", "GRAPH_FUZZ_PLANTED_LOG": log])
            #expect(run.wait(upTo: 60) { startedCases() >= 3 })
            kill(run.process.processIdentifier, SIGINT)
            return run.finish()
        }

        let first = try interrupted([])
        #expect(first.status == 130, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("case 0: shrink interrupted after "), "\(first.stdout)")
        #expect(!first.stdout.contains("case 0: shrunk "), "\(first.stdout)")
        let partial = try #require(saved().first, "nothing saved")
        #expect(saved().count == 1)
        #expect(try String(contentsOfFile: corpus + "/" + partial, encoding: .utf8).contains("\nshrink: interrupted"))

        // A run that shrinks to the end (steps no longer sleep) replaces the marked case.
        let full = try graphFuzz(arguments + ["--json", "--in-process"], executable: Package.plantedExecutable, environment: ["GRAPH_FUZZ_PLANTED_STEP_MS": "0"])
        #expect(full.status == 1, "\(full.stdout)\(full.stderr)")
        let complete = try failureEvent(full.stdout)
        #expect(complete["shrinkInterrupted"] as? Bool == false)
        let completeFile = try #require(complete["corpusFile"] as? String)
        #expect(saved() == [(completeFile as NSString).lastPathComponent], "one file for one failure: \(saved())")
        #expect(try !String(contentsOfFile: completeFile, encoding: .utf8).contains("shrink:"))

        // Interrupted again (in process this time): said in JSON too, and nothing is saved beside the complete case.
        let again = try interrupted(["--json", "--in-process"])
        #expect(again.status == 130, "\(again.stdout)\(again.stderr)")
        let event = try failureEvent(again.stdout)
        #expect(event["shrinkInterrupted"] as? Bool == true, "\(again.stdout)")
        #expect(event["corpusFile"] as? String == completeFile)
        #expect(saved() == [(completeFile as NSString).lastPathComponent], "\(saved())")
        let replay = try graphFuzz(["replay", corpus], executable: Package.plantedExecutable)
        #expect(replay.status == 0 && replay.stdout.contains("1 passed"), "\(replay.stdout)\(replay.stderr)")
    }

    @Test("SIGINT stops the workers, leaves no temporary file, prints the summary so far and exits 130")
    func interrupt() throws {
        let run = try Background(["--target", "queue", "--seed", "1", "--runs", "100000000", "--jobs", "2", "--no-save"])
        #expect(run.wait(upTo: 10) { run.workers.count == 2 })
        usleep(300_000)
        let workers = run.workers
        // Ctrl-C on a terminal reaches the whole process group: the workers too.
        kill(run.process.processIdentifier, SIGINT)
        for worker in workers { kill(worker, SIGINT) }
        let result = run.finish()
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("queue   -") && result.stdout.contains("(interrupted)"), "stdout: \(result.stdout)")
        #expect(!result.stdout.contains("FAILURE"))
        #expect(run.temporaryFiles.isEmpty, "left behind: \(run.temporaryFiles)")
        #expect(workers.allSatisfy { !isRunning($0) })
    }

    @Test("a graph-fuzz whose parent dies (swift test, say) does not outlive it, nor do its workers")
    func diesWithParent() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = ["-c", "\"$GRAPH_FUZZ\" --target queue --seed 1 --runs 100000000 --jobs 2 --no-save >/dev/null 2>&1 & echo $! > \"$PID_FILE\"; wait"]
        parent.environment = ProcessInfo.processInfo.environment.merging(
            ["GRAPH_FUZZ": Package.executable, "PID_FILE": folder + "/pid", "GRAPH_FUZZ_EXIT_WITH_PARENT": "1"]) { $1 }
        try parent.run()
        var pid: pid_t?
        let start = Date()
        while pid == nil && Date().timeIntervalSince(start) < 10 {
            pid = (try? String(contentsOfFile: folder + "/pid", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            usleep(10_000)
        }
        let graphFuzz = try #require(pid)
        while childProcesses(of: graphFuzz).count < 2 && Date().timeIntervalSince(start) < 10 { usleep(10_000) }
        let workers = childProcesses(of: graphFuzz)
        #expect(workers.count == 2)
        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        let end = Date().addingTimeInterval(5)
        while (isRunning(graphFuzz) || workers.contains(where: isRunning)) && Date() < end { usleep(20_000) }
        #expect(!isRunning(graphFuzz), "graph-fuzz outlived its parent")
        #expect(!workers.contains(where: isRunning), "a worker outlived graph-fuzz")
    }

    @Test("--progress prints progress lines without a terminal, and a failure is printed as soon as it is shrunk")
    func progressAndEarlyFailures() throws {
        let result = try shell("exec \"$GRAPH_FUZZ\" --mutant queue-off-by-one --seed 1 --runs 100000000 --time 2.5 --jobs 2 --no-save --progress 2>&1")
        #expect(result.status == 1)
        let text = result.stdout
        let failure = try #require(text.range(of: "FAILURE queue (mutant queue-off-by-one)"))
        let lastProgress = try #require(text.range(of: "graph-fuzz: progress: queue (queue-off-by-one): ", options: .backwards))
        #expect(failure.lowerBound < lastProgress.lowerBound, "the failure came after the search: \(text)")
        #expect(text.contains(" cases/s, 1 failure so far, "))
        #expect(text.contains(" s left"))
    }
}

@Suite("scratch files: every worker gets a folder of its own, and nothing is left however a run ends (built executable)")
struct ScratchCleanupTests {
    @Test("SIGINT or SIGTERM mid-search leaves nothing in TMPDIR: workers remove their files, the parent their folders",
          arguments: [("graph", SIGINT, false), ("mapper", SIGTERM, false), ("cache", SIGINT, false), ("graph", SIGTERM, true)])
    func interruptLeavesNothing(_ target: String, _ signal: Int32, _ inProcess: Bool) throws {
        let run = try Background(["--target", target, "--seed", "1", "--runs", "100000000", "--no-save"]
            + (inProcess ? ["--in-process"] : ["--jobs", "2"]))
        // The cases keep their files in the run's scratch folders, under the TMPDIR the test set.
        let prefix = inProcess ? "graph-fuzz-run-" : "graph-fuzz-worker-"
        #expect(run.wait(upTo: 10) { run.temporaryFiles.filter { $0.hasPrefix(prefix) }.count == (inProcess ? 1 : 2) },
                "scratch folders: \(run.temporaryFiles)")
        usleep(700_000)  // mid-search: cases are running, some with their store files or cache folders open
        let workers = run.workers
        kill(run.process.processIdentifier, signal)
        let result = run.finish()
        #expect(result.status == 128 + signal, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("(interrupted)"), "stdout: \(result.stdout)")
        #expect(run.temporaryFiles.isEmpty, "left behind: \(run.temporaryFiles)")
        #expect(workers.allSatisfy { !isRunning($0) })
    }

    @Test("a worker killed mid-case (SIGKILL): the parent removes what it left in the folder it handed out, and the run goes on")
    func killedWorkersFolderRemoved() throws {
        let run = try Background(["--target", "graph", "--seed", "1", "--runs", "100000000", "--time", "30", "--jobs", "2", "--no-save"])
        // The folders handed out, one per worker, in the TMPDIR the test set (a worker started as a fork of its parent
        // has its parent's command line, so a folder is known by its worker's leaving, not by `--scratch`).
        var folders: [String] { run.temporaryFiles.filter { $0.hasPrefix("graph-fuzz-worker-") } }
        #expect(run.wait(upTo: 10) { run.workers.count == 2 && folders.count == 2 }, "\(run.temporaryFiles)")
        usleep(500_000)
        let victim = try #require(run.workers.first)
        let before = Set(folders)
        kill(victim, SIGKILL)
        // The other worker runs on in its folder: the one that goes is the killed worker's.
        #expect(run.wait(upTo: 10) { before.subtracting(folders).count == 1 }, "the killed worker's folder is still there: \(folders)")
        #expect(run.process.isRunning, "the run should go on")
        kill(run.process.processIdentifier, SIGTERM)
        let result = run.finish()
        #expect(result.status == 143, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("a worker died of SIGKILL"), "stderr: \(result.stderr)")
        #expect(run.temporaryFiles.isEmpty, "left behind: \(run.temporaryFiles)")
    }

    @Test("workers whose graph-fuzz is killed (SIGKILL, no chance to clean up) remove their own scratch folders and end")
    func orphanedWorkersCleanUp() throws {
        let run = try Background(["--target", "graph", "--seed", "1", "--runs", "100000000", "--jobs", "2", "--no-save"])
        #expect(run.wait(upTo: 10) { run.workers.count == 2 && run.temporaryFiles.count == 2 }, "\(run.temporaryFiles)")
        usleep(500_000)
        let workers = run.workers
        kill(run.process.processIdentifier, SIGKILL)
        _ = run.finish()
        #expect(run.wait(upTo: 10) { !workers.contains(where: isRunning) }, "a worker outlived graph-fuzz")
        #expect(run.wait(upTo: 5) { run.temporaryFiles.isEmpty }, "left behind: \(run.temporaryFiles)")
    }
}
