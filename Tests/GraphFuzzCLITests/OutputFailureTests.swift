import Foundation
import Testing

/// Runs the built `graph-fuzz` with standard output or error going to `/dev/full` (every write fails
/// with ENOSPC), the other collected, and its temporary files in a fresh TMPDIR; returns the result
/// and what that TMPDIR holds after the run.
private func graphFuzzWithFullStream(_ arguments: [String], fullStandardError: Bool = false) throws -> (ProcessResult, left: [String]) {
    let (process, tmp, folder) = try graphFuzzProcess(arguments)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let collected = Pipe()
    process.standardOutput = fullStandardError ? collected : full
    process.standardError = fullStandardError ? full : collected
    try process.run()
    let text = String(decoding: collected.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let result = ProcessResult(status: process.terminationStatus, stdout: fullStandardError ? text : "", stderr: fullStandardError ? "" : text)
    return (result, try FileManager.default.contentsOfDirectory(atPath: tmp))
}

/// A `graph-fuzz` process (not started) with `arguments`, its temporary files in a fresh TMPDIR (`tmp`, inside `folder`).
private func graphFuzzProcess(_ arguments: [String]) throws -> (Process, tmp: String, folder: String) {
    let folder = temporaryFolder()
    let tmp = folder + "/tmp"
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Package.executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: Package.root)
    process.environment = ProcessInfo.processInfo.environment.merging(["GRAPH_FUZZ_EXIT_WITH_PARENT": "1", "TMPDIR": tmp + "/"]) { $1 }
    return (process, tmp, folder)
}

@Suite("a standard output or error that cannot be written ends the run with exit 3, no trap (built executable)")
struct OutputFailureTests {
    @Test("a full standard output: exit 3, one line on standard error naming it, workers stopped, nothing left",
          arguments: [["--target", "queue", "--runs", "10", "--no-save"], ["list"],
                      ["--mutant", "queue-off-by-one", "--seed", "1", "--json", "--no-save", "--jobs", "2"]])
    func fullStandardOutput(_ arguments: [String]) throws {
        let (result, left) = try graphFuzzWithFullStream(arguments)
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(result.stderr == "graph-fuzz: cannot write to standard output: No space left on device\n", "stderr: \(result.stderr)")
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test("a standard output whose reader went away (`| head -1`): the run stops quietly with 141, as on SIGPIPE, nothing left")
    func closedPipe() throws {
        let (process, tmp, folder) = try graphFuzzProcess(["--target", "queue", "--seed", "1", "--runs", "5000", "--jobs", "2", "--no-save"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The reader goes away; the run's summary (written once its cases ran) meets the closed pipe.
        try output.fileHandleForReading.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 141, "stderr: \(stderr)")
        #expect(!stderr.contains("cannot write"), "stderr: \(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test("a full standard error stops a long run at its first progress line: exit 3, the summary so far, nothing left")
    func fullStandardError() throws {
        let (result, left) = try graphFuzzWithFullStream(["--target", "queue", "--seed", "1", "--runs", "100000000000", "--jobs", "2",
                                                          "--no-save", "--json", "--progress"], fullStandardError: true)
        #expect(result.status == 3, "stdout: \(result.stdout)")
        let summary = try #require(result.stdout.split(separator: "\n").last { $0.contains(#""event":"summary""#) })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        let cases = try #require(json["cases"] as? Int)
        #expect(cases > 0 && cases < 100_000_000_000, "the search was not stopped: \(summary)")
        #expect(!result.stdout.contains("Fatal error"))
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
