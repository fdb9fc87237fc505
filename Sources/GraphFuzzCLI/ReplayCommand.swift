#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import GraphFuzzIsolation

/// `graph-fuzz replay [FILE|DIR ...]`: one line per case; exit 1 if a case misses its expected
/// outcome, 2 on a malformed file (file and line named), 3 when the harness could not do a step of a
/// case (`HarnessFault`: no verdict on the code under test). Crash and hang cases replay in a worker process.
struct ReplayCommand: Command {
    static let name = "replay"
    static let usage = "replay [FILE|DIR ...] [--json] [--case-timeout SECONDS]"
    static let help = """
        replay corpus cases (default: Corpus/, subfolders included);
        crash and hang cases replay in a worker process
        """

    var paths: [String]
    var json: Bool
    /// Seconds before a replay in a worker is killed and counted as a hang.
    var caseTimeout: Double

    init(_ flags: inout Flags) throws(UsageError) {
        json = try flags.has("--json")
        caseTimeout = try flags.value("--case-timeout", Flags.caseTimeout) ?? 10
        let paths = flags.operands()
        self.paths = paths.isEmpty ? ["Corpus"] : paths
    }

    func run(_ context: CommandContext) -> Int32 {
        let console = context.console
        let files: [String]
        do { files = try Corpus.files(in: paths) } catch {
            console.err("graph-fuzz: \(error)\n")
            return 2
        }
        var failed = 0, malformed = 0, harnessFaults = 0
        for file in files {
            do {
                let corpusCase = try Corpus.read(file)
                let result: ReplayResult
                if let executable = context.workerExecutable, corpusCase.kind == .crash || corpusCase.kind == .hang {
                    let replay = WorkerReplay(timeout: caseTimeout) { target, mutant in
                        // A replay reads its steps from the trace: the steps per case draw nothing there.
                        WorkerCommand.launch(executable, entry: context.workerEntry, target: target.name, mutant: mutant, steps: target.defaultSteps)
                    }
                    result = try replay.replay(corpusCase, file: file, targets: context.registry.targets)
                } else {
                    result = try Corpus.replay(corpusCase, file: file, targets: context.registry.targets)
                }
                if result.harnessFault != nil { harnessFaults += 1 } else if !result.passed { failed += 1 }
                if json {
                    console.out(JSONValue.object([
                        ("event", .string("replay")), ("file", .string(file)), ("target", .string(result.target)),
                        ("outcome", .string(result.harnessFault != nil ? "harnessFault" : result.passed ? "pass" : "fail")),
                        ("rule", .optional(result.rule)),
                    ]).rendered + "\n")
                } else {
                    let drift = (result.drift ? " (generators changed since it was recorded; replayed from its trace)" : "")
                        + (corpusCase.shrinkInterrupted ? " (its shrink was interrupted: not minimal)" : "")
                    let verdict = result.harnessFault != nil ? "HARNESS FAULT" : result.passed ? "pass" : "FAIL"
                    console.out("\(verdict)  \(file)  \(result.message)\(drift)\n")
                }
            } catch {
                malformed += 1
                console.err("graph-fuzz: \(error)\n")
            }
        }
        if !json {
            console.out("\(files.count - failed - malformed - harnessFaults) passed, \(failed) failed, \(malformed) malformed"
                + (harnessFaults > 0 ? ", \(harnessFaults) with a harness fault (no verdict)" : "") + "\n")
        }
        return malformed > 0 ? 2 : harnessFaults > 0 ? 3 : (failed > 0 ? 1 : 0)
    }
}
