import Foundation
import GraphFuzzEngine

/// The `graph-fuzz` command: parses arguments, runs, and returns the exit code
/// (0 no failure, 1 failure, 2 bad usage or input, 3 internal error, among them a write to
/// standard output or error that failed).
package struct GraphFuzzCommand {
    package static let version = "0.1.0"

    package var registry: Registry
    package var console: Console
    /// The seed used when --seed is not given.
    package var freshSeed: () -> UInt64
    /// The `graph-fuzz` executable that runs worker processes (`graph-fuzz worker`); nil runs
    /// every case in this process, as `--in-process` does.
    package var workerExecutable: String?

    package init(registry: Registry = .standard, console: Console = .standard(),
                freshSeed: @escaping () -> UInt64 = { UInt64.random(in: 1...UInt64(UInt32.max)) },
                workerExecutable: String? = nil) {
        self.registry = registry
        self.console = console
        self.freshSeed = freshSeed
        self.workerExecutable = workerExecutable
    }

    package func run(_ arguments: [String]) -> Int32 {
        let status = execute(arguments)
        // A full disk or a closed pipe under standard output: the command stopped (a run stops its
        // workers and removes its temporary files); its output is incomplete, so it is never a pass.
        // A closed pipe is the reader's choice (`| head`): no message, 141 as for a death by SIGPIPE.
        if console.readerGone() { return 128 + SIGPIPE }
        if let failure = console.writeFailure() {
            console.err("graph-fuzz: \(failure)\n")
            return 3
        }
        return status
    }

    private func execute(_ arguments: [String]) -> Int32 {
        do {
            switch try ArgumentParser.parse(arguments) {
            case .help:
                console.out(ArgumentParser.help + "\n")
                return 0
            case .version:
                console.out("graph-fuzz \(Self.version)\n")
                return 0
            case .list(_, true):
                console.out(SpecDocument.markdown(registry))
                return 0
            case .list(let json, false):
                ListCommand(json: json, registry: registry, console: console).execute()
                return 0
            case .replay(let paths, let json, let caseTimeout):
                return ReplayCommand(paths: paths, json: json, registry: registry, console: console,
                                     workerExecutable: workerExecutable, caseTimeout: caseTimeout).execute()
            case .exportTests(let corpus, let output):
                return ExportTestsCommand(corpus: corpus, output: output, registry: registry, console: console).execute()
            case .importCrash(let arguments):
                return try ImportCrashCommand(arguments: arguments, registry: registry, console: console).execute()
            case .exportSeeds(let arguments):
                return try ExportSeedsCommand(arguments: arguments, registry: registry, console: console).execute()
            case .coverage(let arguments):
                return try CoverageCommand(arguments: arguments, registry: registry, console: console).execute()
            case .bench(let arguments):
                return try BenchCommand(arguments: arguments, registry: registry, console: console,
                                        workerExecutable: workerExecutable).execute()
            case .run(let arguments):
                return try RunCommand(arguments: arguments, registry: registry, console: console,
                                      workerExecutable: workerExecutable).execute(defaultSeed: freshSeed)
            case .worker(let arguments):
                return WorkerCommand(arguments: arguments, registry: registry).execute()
            }
        } catch {
            console.err("graph-fuzz: \(error.message)\n")
            return 2
        }
    }
}

/// `graph-fuzz list`: targets, their mutants with the rule each breaks, and the rules.
struct ListCommand {
    var json: Bool
    var registry: Registry
    var console: Console

    func execute() {
        for target in registry.targets {
            if json {
                console.out(JSONValue.object([("event", .string("target")), ("target", .string(target.name))]).rendered + "\n")
                for mutant in target.mutants {
                    console.out(JSONValue.object([("event", .string("mutant")), ("target", .string(target.name)),
                                                  ("mutant", .string(mutant.name)), ("rule", .string(mutant.rule)),
                                                  ("rules", .array(mutant.rules.map(JSONValue.string)))]).rendered + "\n")
                }
                for rule in target.rules {
                    console.out(JSONValue.object([("event", .string("rule")), ("rule", .string(rule.id)),
                                                  ("statement", .string(rule.statement))]).rendered + "\n")
                }
                continue
            }
            console.out("target \(target.name): \(target.summary)\n")
            if !target.mutants.isEmpty {
                console.out("  mutants:\n")
                console.out(Format.table(target.mutants.map { ["    \($0.name)", "breaks \($0.rules.joined(separator: ", "))", $0.summary] }))
            }
            console.out("  rules:\n")
            console.out(Format.table(target.rules.map { ["    \($0.id)", "[\($0.confidence)]", $0.statement, "(\($0.source))"] }))
            console.out("\n")
        }
    }
}
