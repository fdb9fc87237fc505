import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
import Testing

/// Runs state machines and targets inside Swift Testing through the engine's one pipeline (`Campaign`, which the
/// command line runs too): every case of the budget runs, failures are grouped by signature, and each is shrunk,
/// saved (with a corpus) and recorded as a test issue carrying its shrunk report (readable steps, the reproducing
/// test and a `reproduce:` line naming the test and its seed).
public enum GraphFuzzTest {
    /// Where a check runs its cases.
    public enum Isolation: Sendable, Equatable {
        /// In the test process: fastest; a trap in the code under test ends the whole test run.
        case none
        /// In worker processes (the test binary run again for this test alone): a trap fails this
        /// test with a shrunk `crash` report, a step that never returns with a `hang` report, while the other
        /// tests go on. Where processes cannot be started (iOS, tvOS, watchOS, visionOS) the check records an
        /// issue saying so and runs nothing.
        case process
    }

    /// Searches `target` (or one of its mutants) and records each failure as an issue.
    ///
    /// - Parameters:
    ///   - runs: cases to run (`SearchLoop.defaultRuns` — the CLI's default too).
    ///   - corpus: a folder to replay before searching (cases of this target in it must pass) and
    ///     to save each shrunk failure to; nil for neither.
    ///   - isolation: `.process` to survive traps in the code under test.
    @discardableResult
    public static func check(_ target: Target, mutant: String? = nil, seed: UInt64 = 1, runs: Int = SearchLoop.defaultRuns,
                             maxSteps: Int? = nil, corpus: String? = nil, isolation: Isolation = .none,
                             sourceLocation: SourceLocation = #_sourceLocation) -> CheckResult {
        check(target, mutant: mutant, seed: seed, runs: runs, maxSteps: maxSteps, corpus: corpus, isolation: isolation,
              reproduce: nil, sourceLocation: sourceLocation)
    }

    /// `reproduce`: the report's `reproduce:` line (nil: the `graph-fuzz` command, right for a
    /// target registered with the CLI).
    static func check(_ target: Target, mutant: String?, seed: UInt64, runs: Int, maxSteps: Int?, corpus: String?,
                      isolation: Isolation, reproduce: String?, sourceLocation: SourceLocation) -> CheckResult {
        if let mutant, target.mutant(named: mutant) == nil {
            let known = target.mutants.map(\.name).joined(separator: ", ")
            Issue.record("graph-fuzz: target \(target.name) has no mutant '\(mutant)' (known: \(known.isEmpty ? "none" : known))",
                         sourceLocation: sourceLocation)
            return CheckResult(run: nil, reports: [], replayed: 0)
        }
        let options = SearchOptions(seed: seed, runs: runs, steps: maxSteps)
        let plan = SearchPlan(target, mutant: mutant, options: options)
        // In a test binary started again as this check's worker: serve its cases, never search.
        let isolated = CheckIsolation.name(target: target.name, mutant: mutant, maxSteps: plan.maxSteps, sourceLocation: sourceLocation)
        ProcessIsolation.serveIfWorker(check: isolated, maxSteps: plan.maxSteps) { target.machine(mutant: mutant, scratchFolder: $0) }
        var replayed = 0
        if let corpus { replayed = replay(corpus, target: target, mutant: mutant, sourceLocation: sourceLocation) }
        // The pipeline the command line runs: in this process its cases' files go in a scratch folder of the check's
        // own, removed when it ends; a worker's in the worker's own folder, removed when the worker ends, whether a case
        // crashed it or not.
        var campaign = Campaign(selection: [(target, mutant)], options: options, corpus: corpus, scratchName: "check")
        if isolation == .process {
            campaign.executor = { target, _ throws(RunError) in
                do throws(WorkerError) { return try CheckIsolation.executor(target: target, check: isolated, test: Test.current) } catch {
                    throw error.runError
                }
            }
        }
        var saved: [String?] = []
        let run: SearchRun
        do {
            guard let searched = try campaign.run({ event in
                switch event {
                case .failure(_, let corpusFile): saved.append(corpusFile)
                case .saveFailed(let reason): Issue.record("graph-fuzz could not save the case: \(reason)", sourceLocation: sourceLocation)
                default: break
                }
            }).first else { return CheckResult(run: nil, reports: [], replayed: replayed) }
            run = searched
        } catch .harnessFault(let fault) {
            // The harness could not do its work: the test fails, but with no counterexample.
            Issue.record("graph-fuzz: \(fault)", sourceLocation: sourceLocation)
            return CheckResult(run: nil, reports: [], replayed: replayed, harnessFault: fault)
        } catch {
            // No scratch folder, or isolation could not run (unavailable on this platform, no test to start again,
            // workers that keep dying).
            Issue.record("graph-fuzz: \(error)", sourceLocation: sourceLocation)
            return CheckResult(run: nil, reports: [], replayed: replayed)
        }
        // As the command line does: a rule a passing run never exercised, an action that never ran (warnings, not failures;
        // a run that failed has its failures to show).
        let warnings = run.failures.isEmpty
            ? CoverageReport(target: target.name, rules: target.rules, coverage: run.coverage, cases: run.cases, rejected: run.rejected).warnings : []
        for warning in warnings { Issue.record(Comment(rawValue: "graph-fuzz: warning: \(warning)"), severity: .warning, sourceLocation: sourceLocation) }
        // Each failure's report with the final count of its cases, recorded as an issue.
        let reports = zip(run.failures, saved).map { found, file in
            FailureReport(found, corpusFile: file, caseCount: found.caseCount, reproduce: reproduce)
        }
        for report in reports { Issue.record(Comment(rawValue: report.text), sourceLocation: sourceLocation) }
        return CheckResult(run: run, reports: reports, replayed: replayed, warnings: warnings)
    }

    /// Searches a state machine of your own and records each failure as an issue; a machine that declares its rules
    /// (`RuleDeclaring`) is warned of each it never exercised, any machine of each action that never ran.
    @discardableResult
    public static func check<M: StateMachine & Sendable>(_ machine: M, name: String = "machine", seed: UInt64 = 1,
                                                          runs: Int = SearchLoop.defaultRuns, maxSteps: Int = 30,
                                                          corpus: String? = nil, isolation: Isolation = .none,
                                                          sourceLocation: SourceLocation = #_sourceLocation) -> CheckResult {
        let rules = (machine as? any RuleDeclaring)?.rules ?? []
        let target = Target(name: name, summary: "", rules: rules, mutants: [], defaultSteps: maxSteps, generatorVersion: "0") { _ in machine }
        return check(target, mutant: nil, seed: seed, runs: runs, maxSteps: maxSteps, corpus: corpus, isolation: isolation,
                     reproduce: reproduceLine(target: target, seed: seed), sourceLocation: sourceLocation)
    }

    /// Replays one case of `target`'s production code, written as its trace — the steps of a failure's report, a
    /// concurrent step's interleaving and cancellations included — and records an issue saying what broke when it
    /// fails (an exported test of a concurrent case calls this). Returns whether it passed.
    ///
    /// ```swift
    /// GraphFuzzTest.replay(Target.graph, config: "config(schema: \"local\", …)", steps: [
    ///     "v1 = create(entity: \"Work\", variant: 0, context: 0)",
    ///     "save(context: 0)",
    ///     "concurrently(A: refreshTitle(work: v1, title: 1), B: retitle(work: v1, title: 2), schedule: [0, 1], cancel: [3])",
    /// ])
    /// ```
    @discardableResult
    public static func replay(_ target: Target, config: String, steps: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        replay(target.machine(), name: target.name, config: config, steps: steps, sourceLocation: sourceLocation)
    }

    /// `replay(_:config:steps:)` for a state machine of your own (its configuration `config()` when it draws none).
    @discardableResult
    public static func replay<M: StateMachine & Sendable>(_ machine: M, config: String = "config()", steps: [String],
                                                          sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let target = Target(name: "machine", summary: "", rules: [], mutants: [], defaultSteps: max(1, steps.count), generatorVersion: "0") { _ in machine }
        return replay(target.machine(), name: "machine", config: config, steps: steps, sourceLocation: sourceLocation)
    }

    private static func replay(_ machine: AnyMachine, name: String, config: String, steps: [String], sourceLocation: SourceLocation) -> Bool {
        var parsed: [TraceStep] = []
        let configStep: TraceStep
        do throws(TraceError) {
            configStep = try TraceStep(parsing: config[...])
            for step in steps { parsed.append(try TraceStep(parsing: step[...])) }
        } catch {
            Issue.record("graph-fuzz: cannot read the case's steps: \(error)", sourceLocation: sourceLocation)
            return false
        }
        switch machine.replay(configStep, parsed) {
        case .failure(let error):
            Issue.record("graph-fuzz: \(name) cannot replay the case: \(error)", sourceLocation: sourceLocation)
            return false
        case .success(let record):
            switch record.outcome {
            case .pass:
                return true
            case .fail(let failure):
                let at = failure.step.map { "step \($0 + 1): " } ?? ""
                Issue.record(Comment(rawValue: "\(name): rule \(failure.rule), \(failure.kind.rawValue) — \(at)\(failure.message)"),
                             sourceLocation: sourceLocation)
            case .harnessFault(let fault):
                Issue.record("graph-fuzz: \(fault)", sourceLocation: sourceLocation)
            case .rejected:
                Issue.record("graph-fuzz: \(name) rejected the case (an assumption of its steps does not hold)", sourceLocation: sourceLocation)
            }
            return false
        }
    }

    /// `swift test --filter NAME` for the running test (its seed is fixed in its source), or the
    /// CLI command when there is no current test.
    static func reproduceLine(target: Target, seed: UInt64) -> String {
        guard let test = Test.current else { return "graph-fuzz --target \(target.name) --seed \(seed)" }
        let name = test.name.split(separator: "(").first.map(String.init) ?? test.name
        return "swift test --filter '\(name)'  (seed \(seed))"
    }

    /// Replays the corpus cases of `target` (and `mutant`) in `folder`; each that does not pass is
    /// an issue. A folder that does not exist yet holds nothing. Returns the cases replayed.
    static func replay(_ folder: String, target: Target, mutant: String?, sourceLocation: SourceLocation) -> Int {
        guard FileManager.default.fileExists(atPath: folder) else { return 0 }
        var replayed = 0
        do {
            for file in try Corpus.files(in: [folder]) {
                let corpusCase = try Corpus.read(file)
                guard corpusCase.target == target.name, corpusCase.mutant == mutant else { continue }
                replayed += 1
                let result = try Corpus.replay(corpusCase, file: file, targets: [target])
                if !result.passed {
                    Issue.record("corpus case \(file) fails again: \(result.message)", sourceLocation: sourceLocation)
                }
            }
        } catch {
            // An empty folder is a folder we have not saved to yet.
            if !error.message.contains("no .case file") {
                Issue.record("graph-fuzz could not replay \(folder): \(error)", sourceLocation: sourceLocation)
            }
        }
        return replayed
    }
}

/// What `GraphFuzzTest.check` did, printed readably: cases, steps, and each failure's report.
public struct CheckResult: Sendable, CustomStringConvertible {
    /// The search (nil when it could not run).
    package var run: SearchRun?
    /// One report per failure signature.
    package var reports: [FailureReport]
    /// Corpus cases replayed before the search.
    public var replayed: Int
    /// The harness fault that stopped the search (recorded as an issue, never as a counterexample).
    package var harnessFault: CaseHarnessFault?
    /// What the run never exercised (a rule, an action), each recorded as a warning.
    public var warnings: [String] = []

    package init(run: SearchRun?, reports: [FailureReport], replayed: Int, harnessFault: CaseHarnessFault? = nil, warnings: [String] = []) {
        self.run = run
        self.reports = reports
        self.replayed = replayed
        self.harnessFault = harnessFault
        self.warnings = warnings
    }

    /// Whether the search ran and found no failure.
    public var passed: Bool { run.map { $0.failures.isEmpty } ?? false }
    /// The rules the failures broke, one per failure signature, in the order found.
    public var failedRules: [String] { failures.map(\.failure.rule) }
    /// The first failure found (nil when the run passed).
    package var failure: FoundFailure? { failures.first }
    /// Every failure signature found, shrunk and described.
    package var failures: [FoundFailure] { run?.failures ?? [] }
    public var cases: Int { run?.cases ?? 0 }
    /// Steps run by the search (not counting shrinking).
    public var steps: Int { run?.steps ?? 0 }

    public var description: String {
        if let harnessFault { return "graph-fuzz: \(harnessFault)" }
        guard let run else { return "graph-fuzz: the search did not run" }
        var out = "graph-fuzz \(run.plan.target)\(run.plan.mutant.map { " (mutant \($0))" } ?? ""), seed \(run.plan.seed): "
        out += "\(run.cases) cases, \(run.steps) steps"
        if replayed > 0 { out += ", \(replayed) corpus \(replayed == 1 ? "case" : "cases") replayed" }
        out += run.failures.isEmpty ? ": passed\n" : ": \(run.failures.count) \(run.failures.count == 1 ? "failure" : "failures")\n"
        for report in reports { out += "\n" + report.text }
        return out
    }
}
