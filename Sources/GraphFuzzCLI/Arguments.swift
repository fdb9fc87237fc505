import GraphFuzzEngine

/// Bad usage: the message names the flag or value that was wrong. Exit code 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Options of the main command (`graph-fuzz [flags]`).
package struct RunArguments: Equatable {
    package var target = "all"
    package var seed: UInt64?
    package var runs = SearchLoop.defaultRuns
    package var steps: Int?
    package var time: Double?
    package var mutant: String?
    package var json = false
    package var corpus = "Corpus"
    package var save = true
    package var quiet = false
    /// Worker processes (nil: one per core); ignored with `inProcess`.
    package var jobs: Int?
    /// `--shard I/N`: run only slice I (1-based) of N.
    package var shard = Shard(index: 1, count: 1)
    /// Seconds before a running case is killed and reported as a hang.
    package var caseTimeout = 10.0
    /// Run cases in this process (no crash or hang isolation).
    package var inProcess = false
    /// Print a progress line every few seconds even when standard error is not a terminal.
    package var progress = false
    /// `--case N`: run case N of the seed's run alone (the report's reproduce line).
    package var caseIndex: Int?
}

/// `--shard I/N`: slice I (1-based) of N; case i belongs to slice i % N + 1.
package struct Shard: Equatable, Sendable {
    package var index: Int
    package var count: Int
}

/// What the command line asks for.
package enum Invocation: Equatable {
    case run(RunArguments)
    case replay(paths: [String], json: Bool, caseTimeout: Double)
    case list(json: Bool, markdown: Bool)
    case exportTests(corpus: String, output: String)
    case importCrash(ImportCrashArguments)
    case exportSeeds(ExportSeedsArguments)
    case bench(BenchArguments)
    case coverage(CoverageArguments)
    /// The hidden `worker` subcommand: a worker process of a run (see `WorkerProtocol`).
    case worker(WorkerArguments)
    case help
    case version
}

/// Parses `graph-fuzz` arguments (without the program name).
package enum ArgumentParser {
    /// The commands a user types (the hidden `worker` aside).
    static let commands = ["replay", "list", "export-tests", "import-crash", "export-seeds", "bench", "coverage"]

    package static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var rest = arguments[...]
        // `graph-fuzz COMMAND --help` (alone after the command) prints the help, which describes every command.
        if rest.count == 2, let command = rest.first, commands.contains(command), ["--help", "-h"].contains(rest.last!) {
            return .help
        }
        switch rest.first {
        case "replay":
            rest.removeFirst()
            var paths: [String] = [], json = false, caseTimeout = 10.0
            while let argument = rest.popFirst() {
                if argument == "--json" { json = true } else if argument == "--case-timeout" {
                    caseTimeout = try caseTimeoutSeconds(try value(for: argument, &rest))
                } else if argument.hasPrefix("-") {
                    throw UsageError("replay: unknown flag '\(argument)' (replay takes files or folders, --json and --case-timeout SECONDS)")
                } else { paths.append(argument) }
            }
            return .replay(paths: paths.isEmpty ? ["Corpus"] : paths, json: json, caseTimeout: caseTimeout)
        case "list":
            rest.removeFirst()
            var json = false, markdown = false
            while let argument = rest.popFirst() {
                switch argument {
                case "--json": json = true
                case "--markdown": markdown = true
                default: throw UsageError("list: unknown argument '\(argument)' (list takes --json or --markdown)")
                }
            }
            if json && markdown { throw UsageError("list: --json and --markdown cannot be combined (choose one)") }
            return .list(json: json, markdown: markdown)
        case "export-tests":
            rest.removeFirst()
            var corpus = "Corpus", output = "Tests/CorpusRegressionTests"
            while let argument = rest.popFirst() {
                switch argument {
                case "--corpus": corpus = try value(for: argument, &rest)
                case "--out": output = try value(for: argument, &rest)
                default: throw UsageError("export-tests: unknown argument '\(argument)' (export-tests takes --corpus DIR and --out DIR)")
                }
            }
            return .exportTests(corpus: corpus, output: output)
        case "import-crash": return .importCrash(try ImportCrashArguments.parse(rest.dropFirst()))
        case "export-seeds": return .exportSeeds(try ExportSeedsArguments.parse(rest.dropFirst()))
        case "coverage": return .coverage(try CoverageArguments.parse(rest.dropFirst()))
        case "worker":
            return .worker(try WorkerArguments.parse(rest.dropFirst()))
        case "bench":
            rest.removeFirst()
            var bench = BenchArguments()
            while let argument = rest.popFirst() {
                switch argument {
                case "--quick": bench.quick = true
                case "--json": bench.json = true
                case "--target": bench.target = try value(for: argument, &rest)
                case "--soak":
                    let text = try value(for: argument, &rest)
                    bench.soak = try seconds("bench --soak", text, within: FlagLimits.time)
                default: throw UsageError("bench: unknown argument '\(argument)' (bench takes --quick, --json, --target NAME, --soak SECONDS)")
                }
            }
            return .bench(bench)
        default: break
        }
        var run = RunArguments()
        // --help and --version take nothing else: `--version --bogus` is bad usage, not a version.
        if let first = rest.first, ["--help", "-h", "--version"].contains(first) {
            guard rest.count == 1 else {
                throw UsageError("\(first) takes no other arguments (got '\(rest.dropFirst().joined(separator: " "))')")
            }
            return first == "--version" ? .version : .help
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h", "--version":
                throw UsageError("\(argument) takes no other arguments (use it alone: graph-fuzz \(argument))")
            case "--target": run.target = try value(for: argument, &rest)
            case "--seed":
                run.seed = try seed(argument, try value(for: argument, &rest))
            case "--runs": run.runs = try positiveInt(argument, try value(for: argument, &rest), within: FlagLimits.runs)
            case "--steps": run.steps = try positiveInt(argument, try value(for: argument, &rest), within: FlagLimits.steps)
            case "--time": run.time = try seconds(argument, try value(for: argument, &rest), within: FlagLimits.time)
            case "--mutant": run.mutant = try value(for: argument, &rest)
            case "--json": run.json = true
            case "--corpus": run.corpus = try value(for: argument, &rest)
            case "--no-save": run.save = false
            case "--quiet": run.quiet = true
            case "--jobs": run.jobs = try positiveInt(argument, try value(for: argument, &rest), within: FlagLimits.jobs)
            case "--shard": run.shard = try shard(try value(for: argument, &rest))
            case "--case-timeout": run.caseTimeout = try caseTimeoutSeconds(try value(for: argument, &rest))
            case "--in-process": run.inProcess = true
            case "--progress": run.progress = true
            case "--case": run.caseIndex = try caseNumber(try value(for: argument, &rest))
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown flag '\(argument)' (see graph-fuzz --help)") }
                throw UsageError("unknown command '\(argument)' (commands: replay, list, export-tests, import-crash, export-seeds, bench, coverage; see graph-fuzz --help)")
            }
        }
        if run.caseIndex != nil { try checkCase(run, arguments) }
        return .run(run)
    }

    /// `--case N` runs one case of one seed's run: it needs the seed, and takes no budget or slice of cases.
    private static func checkCase(_ run: RunArguments, _ arguments: [String]) throws(UsageError) {
        guard run.seed != nil else { throw UsageError("--case: needs --seed (a case number names a case of one seed's run)") }
        for flag in ["--runs", "--time", "--shard"] where arguments.contains(flag) {
            throw UsageError("--case: runs one case, so \(flag) cannot be given with it")
        }
    }

    /// `--case`: a case number of a run, 0 up to the most `--runs` allows.
    private static func caseNumber(_ text: String) throws(UsageError) -> Int {
        let limit = FlagLimits.runs.upperBound - 1
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw UsageError("--case: '\(text)' is not a non-negative integer")
        }
        guard let number = Int(text), number <= limit else { throw UsageError("--case: '\(text)' is out of range (0–\(limit))") }
        return number
    }

    private static func value(for flag: String, _ rest: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
        return value
    }

    private static func seconds(_ flag: String, _ text: String, within limits: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw UsageError("\(flag): '\(text)' is not a positive number of seconds") }
        guard limits.contains(seconds) else {
            throw UsageError("\(flag): '\(text)' is out of range (\(FlagLimits.text(limits.lowerBound))–\(FlagLimits.text(limits.upperBound)) seconds)")
        }
        return seconds
    }

    /// `--case-timeout`: below `FlagLimits.caseTimeout` a worker cannot even start a case, and every case would be a hang.
    private static func caseTimeoutSeconds(_ text: String) throws(UsageError) -> Double {
        let limits = FlagLimits.caseTimeout
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw UsageError("--case-timeout: '\(text)' is not a positive number of seconds") }
        guard seconds >= limits.lowerBound else {
            throw UsageError("--case-timeout: '\(text)' is too short: a case needs at least \(FlagLimits.text(limits.lowerBound)) s to start and run a step (every case would be reported as a hang)")
        }
        guard seconds <= limits.upperBound else {
            throw UsageError("--case-timeout: '\(text)' is out of range (\(FlagLimits.text(limits.lowerBound))–\(FlagLimits.text(limits.upperBound)) seconds)")
        }
        return seconds
    }

    private static func shard(_ text: String) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ isInteger(String($0)) && !$0.hasPrefix("-") }), parts.contains(where: { Int($0) == nil }) {
            throw UsageError("--shard: '\(text)' is out of range (I/N with 1 ≤ I ≤ N ≤ \(Int.max))")
        }
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, (1...count).contains(index) else {
            throw UsageError("--shard: '\(text)' is not I/N with 1 ≤ I ≤ N (for example 2/4)")
        }
        return Shard(index: index, count: count)
    }

    static func positiveInt(_ flag: String, _ text: String, within limits: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text) else {
            if isInteger(text) && !text.hasPrefix("-") {
                throw UsageError("\(flag): '\(text)' is out of range (\(limits.lowerBound)–\(limits.upperBound))")
            }
            throw UsageError("\(flag): '\(text)' is not a positive integer")
        }
        guard value > 0 else { throw UsageError("\(flag): '\(text)' is not a positive integer") }
        guard limits.contains(value) else { throw UsageError("\(flag): '\(text)' is out of range (\(limits.lowerBound)–\(limits.upperBound))") }
        return value
    }

    /// A seed: any integer from 0 to 2^64 − 1. Digits beyond it are out of range, not "not a number".
    package static func seed(_ flag: String, _ text: String) throws(UsageError) -> UInt64 {
        guard let value = UInt64(text) else {
            if isInteger(text) && !text.hasPrefix("-") {
                throw UsageError("\(flag): '\(text)' is out of range (0–\(UInt64.max))")
            }
            throw UsageError("\(flag): '\(text)' is not a non-negative integer")
        }
        return value
    }

    /// An optional sign followed by at least one digit and nothing else: a number, however large.
    private static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }

    package static let help = """
        graph-fuzz — finds the bugs that crash SwiftData and Core Data apps by checking an executable
        specification of object-graph rules against production code with shrinking random tests.

        USAGE
          graph-fuzz [--target NAME|all] [--seed N] [--runs N] [--steps N] [--time SECONDS] [--mutant NAME]
                     [--json] [--corpus DIR] [--no-save] [--quiet] [--progress]
                     [--jobs N] [--shard I/N] [--case-timeout SECONDS] [--in-process] [--case N]
          graph-fuzz replay [FILE|DIR ...] [--json] [--case-timeout SECONDS]
                                                replay corpus cases (default: Corpus/, subfolders included);
                                                crash and hang cases replay in a worker process
          graph-fuzz list [--json|--markdown]   targets, their mutants with the rule each breaks, the rules
          graph-fuzz export-tests [--corpus DIR] [--out DIR]
                                                write the corpus as Swift tests (default out: Tests/CorpusRegressionTests);
                                                replaces only files it exported from the same corpus (known by
                                                the identity in DIR/.graph-fuzz-corpus, not by its name)
          graph-fuzz import-crash FILE --target NAME [--mutant NAME] [--steps N] [--corpus DIR]
                                                a libFuzzer input (crash-* file) as a shrunk corpus case
          graph-fuzz export-seeds [--corpus DIR] [--out DIR] [--target NAME]
                                                the corpus as libFuzzer seed inputs, OUT/<target>/ (default out: fuzz-seeds)
          graph-fuzz bench [--quick] [--json] [--target NAME] [--soak SECONDS]
                                                throughput, time to failure per mutant, shrink cost, memory
                                                (best from a release build: swift run -c release graph-fuzz bench)
          graph-fuzz coverage [--target NAME|all] [--runs N] [--seed N] [--steps N]
                                                how often each rule was exercised, and health warnings
                                                (exit 1 when there is a warning)
          graph-fuzz [COMMAND] --help | graph-fuzz --version

        OPTIONS
          --target NAME   a target from `graph-fuzz list`, or all (default)
          --seed N        the run's seed (default: a fresh one, printed first)
          --runs N        test cases per target (default 2000; at most 10^12)
          --steps N       most steps per case (default: the target's own; at most 1000000)
          --time SECONDS  wall-clock budget per target for the search (shrinking not counted)
          --mutant NAME   run against a named faulty variant of the production code
          --json          JSON Lines on standard output, one object per event (keys below)
          --corpus DIR    where failures are saved (default Corpus/); checked before the search by
                          writing a probe file there (exit 2 naming the path and the reason)
          --no-save       do not save failures
          --quiet         only failures and the summary (no progress line)
          --progress      a progress line on standard error every 2 s even when it is not a terminal
                          (on a terminal one line is kept up to date anyway)
          --jobs N        worker processes running cases in parallel (default and most: one per core)
          --shard I/N     run only slice I of N of the cases (CI machines split one seed's budget)
          --case-timeout SECONDS
                          a case running longer is run again in a fresh worker and is a hang only if
                          one of its steps alone runs longer (default 10; 0.1 to 86400)
          --in-process    run cases in this process: fastest, no crash or hang isolation (failures
                          are still grouped by signature, as in workers)
          --case N        run case N of the seed's run alone (needs --seed; with the run's --steps):
                          a failure's `reproduce:` line names it, and prints the same report

        JSON LINES (--json)
          failure  event target mutant seed case rule kind message steps originalSteps shrinkAttempts
                   secondsToFailure counterexample swift corpusFile
          coverage event target rule decided cases   (one per rule, before the summary: a target's last event)
          summary  event target mutant seed cases steps seconds stepsPerSecond failures
          replay   event file target outcome rule
          list     {event: target, target} {event: mutant, target, mutant, rule} {event: rule, rule, statement}

        WHAT IS A FAILURE
          A failure of the code under test is a rule of the specification that broke, a trap the code
          raised that a fresh worker reproduces, or a step that never finishes. A worker killed from
          outside (SIGKILL, the OOM killer, CI limits), a slow case that keeps finishing steps, or a
          fault of graph-fuzz itself is never one: it is a note, or exit 3.

        EXIT CODES
          0 no failure   1 a failure was found (or a replayed case failed)
          2 bad usage or bad input (a flag, a file and line, a corpus folder, too few open files)
          3 internal or infrastructure error (workers keep dying without a reproducing case), a
            harness fault (a machine's own I/O failed, e.g. a full /tmp: target, seed, case, step named),
            or standard output or error that cannot be written (a full disk)
          130 / 143 interrupted by SIGINT / SIGTERM (workers stopped, temporary files removed, summary
            so far printed)
          141 standard output's reader went away (| head): stopped quietly, as SIGPIPE would
        """
}
