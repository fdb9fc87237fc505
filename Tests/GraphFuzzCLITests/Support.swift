import Foundation
import GraphFuzzCLI

/// Paths of the package under test.
enum Package {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static var corpus: String { root + "/Corpus" }
    static var fixtures: String { root + "/Tests/GraphFuzzCLITests/Fixtures" }
    static var exportedTests: String { root + "/Tests/CorpusRegressionTests" }

    /// The built `graph-fuzz` executable, next to the test bundle.
    static var executable: String { built("graph-fuzz") }

    /// The built `graph-fuzz-planted`: `graph-fuzz` with the test-only planted targets registered.
    static var plantedExecutable: String { built("graph-fuzz-planted") }

    /// The built executable `name`, next to the test bundle.
    private static func built(_ name: String) -> String {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return root + "/.build/debug/" + name
    }
}

/// The result of running the executable.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `graph-fuzz` (or `executable`) with `arguments` in `directory`. It runs with
/// `GRAPH_FUZZ_EXIT_WITH_PARENT=1`, so it never outlives the test process.
func graphFuzz(_ arguments: [String], in directory: String = Package.root, executable: String = Package.executable,
               environment extra: [String: String] = [:]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = ProcessInfo.processInfo.environment.merging(["GRAPH_FUZZ_EXIT_WITH_PARENT": "1"].merging(extra) { $1 }) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs the command in-process with a collecting console.
func runInProcess(_ arguments: [String], registry: Registry = .standard) -> ProcessResult {
    final class Box: @unchecked Sendable { var out = "", err = "" }
    let box = Box()
    let console = Console(out: { box.out += $0 }, err: { box.err += $0 }, isTerminal: false)
    let status = GraphFuzzCommand(registry: registry, console: console, freshSeed: { 42 }).run(arguments)
    return ProcessResult(status: status, stdout: box.out, stderr: box.err)
}

/// Masks the timing fields of a report so two runs can be compared byte for byte.
func maskingTimings(_ text: String) -> String {
    var result = text
    for pattern in [#"[0-9]+/s"#, #"[0-9]+\.[0-9]{3}s"#, #""(seconds|secondsToFailure|secondsToFound|stepsPerSecond)":[0-9.e-]+"#] {
        result = result.replacingOccurrences(of: pattern, with: "T", options: .regularExpression)
    }
    return result
}

func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "graph-fuzz-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs `script` with /bin/sh in the package root; `$GRAPH_FUZZ` is the built executable.
func shell(_ script: String, environment extra: [String: String] = [:]) throws -> ProcessResult {
    try graphFuzz(["-c", script], executable: "/bin/sh",
                  environment: ["GRAPH_FUZZ": Package.executable].merging(extra) { $1 })
}
