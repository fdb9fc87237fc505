import Foundation
import GraphFuzzCLI
import GraphFuzzEngine

/// What one fuzzing process runs: the selected target, how it mutates, and counters for its log.
final class FuzzSession {
    let harness: FuzzHarness
    /// Span-wise step mutations (`--mutator=steps`) besides libFuzzer's byte mutations.
    let stepMutations: Bool
    let mutator: StepMutator
    let started = ContinuousClock.now
    var inputs = 0

    init(harness: FuzzHarness, stepMutations: Bool) {
        self.harness = harness
        self.stepMutations = stepMutations
        mutator = StepMutator(generate: harness.generate)
    }

    /// The session the arguments and environment select, or an error naming what was wrong.
    static func make(arguments: [String]) throws(FuzzSelectionError) -> FuzzSession {
        let environment = ProcessInfo.processInfo.environment
        let name = (arguments.first.map { ($0 as NSString).lastPathComponent }) ?? ""
        let harness = try FuzzSelection.parse(arguments: arguments, environment: environment, executableName: name,
                                              targets: Registry.standard.targets)
        let mode = arguments.last { $0.hasPrefix("--mutator=") }.map { String($0.dropFirst("--mutator=".count)) }
            ?? environment["GRAPHFUZZ_MUTATOR"] ?? "bytes"
        guard mode == "bytes" || mode == "steps" else {
            throw FuzzSelectionError("--mutator: '\(mode)' is not bytes or steps")
        }
        return FuzzSession(harness: harness, stepMutations: mode == "steps")
    }

    var seconds: Double { (ContinuousClock.now - started).seconds }

    /// Runs one input; a failure is written to standard error and returned.
    func test(_ bytes: [UInt8]) -> Outcome {
        inputs += 1
        let outcome = harness.run(bytes).outcome
        if let failure = outcome.failure {
            log("FAIL after \(inputs) inputs in \(String(format: "%.3f", seconds)) s: \(harness.describe(failure))")
        }
        return outcome
    }

    /// `--random-search=SECONDS [--seed=N]`: the engine's random search on this binary, for a
    /// comparison in the same build; stops at the first failure. Exit code 1 on a failure, else 0.
    func randomSearch(seconds limit: Double, seed: UInt64) -> Int32 {
        var index = 0
        while seconds < limit {
            let outcome = harness.test(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)))
            index += 1
            if let failure = outcome.failure {
                log("random search FAIL after \(index) cases in \(String(format: "%.3f", seconds)) s: \(harness.describe(failure))")
                return 1
            }
        }
        log("random search: no failure in \(index) cases, \(String(format: "%.3f", seconds)) s")
        return 0
    }

    var banner: String {
        "\(harness.target.name)\(harness.mutant.map { " (mutant \($0))" } ?? ""), at most \(harness.maxSteps) steps a case, "
            + "mutator \(stepMutations ? "steps (span-wise) and bytes" : "bytes")"
    }
}

/// One line on standard error, unbuffered (the process may trap right after).
func log(_ line: String) {
    FileHandle.standardError.write(Data("graph-fuzz-libfuzzer: \(line)\n".utf8))
}

/// The value of `--name=VALUE` among the arguments.
func option(_ name: String, in arguments: [String]) -> String? {
    let prefix = "--\(name)="
    return arguments.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
}

/// Runs `--random-search=SECONDS` when asked; nil when not asked.
func randomSearchIfAsked(_ session: FuzzSession, arguments: [String]) -> Int32? {
    guard let text = option("random-search", in: arguments) else { return nil }
    guard let limit = Double(text), limit > 0, limit.isFinite else {
        log("--random-search: '\(text)' is not a positive number of seconds")
        return 2
    }
    let seedText = option("seed", in: arguments) ?? "1"
    let seed: UInt64
    do { seed = try Flags.seed("--seed", seedText) } catch {
        log(error.message)
        return 2
    }
    log("random search: \(session.banner), seed \(seed), at most \(text) s")
    return session.randomSearch(seconds: limit, seed: seed)
}

/// `--export-seeds=DIR [--corpus=DIR]`: the corpus as seed inputs, `DIR/<target>/`, as
/// `graph-fuzz export-seeds` writes them (a fuzzing cluster's build script has only this binary).
func exportSeedsIfAsked(arguments: [String]) -> Int32? {
    guard let output = option("export-seeds", in: arguments) else { return nil }
    var command = ["export-seeds", "--out", output]
    if let corpus = option("corpus", in: arguments) { command += ["--corpus", corpus] }
    return GraphFuzzCommand().run(command)
}
