import GraphFuzzEngine

/// What `graph-fuzz [flags]` prints of a campaign's events: each failure as soon as it is shrunk (its report, or a
/// JSON `failure` event), each target's coverage and summary events (JSON), and at the end the summary table with
/// the rare and never-exercised rules (text).
struct RunReport {
    let json: Bool
    let console: Console
    let progress: ProgressLine
    let quiet: Bool
    /// `--case N`: one case, which says nothing of how often a rule is exercised.
    let caseIndex: Int?
    /// `--runs`: cases per target.
    let runs: Int
    private var rows = [["target", "mutant", "cases", "steps", "result", "time"]]
    /// The rare and never-exercised rules and health warnings, printed after the table.
    private var coverageLines: [String] = []
    /// Failures found whose case could not be saved (an infrastructure error: exit 3).
    private(set) var unsaved = 0

    init(json: Bool, quiet: Bool, console: Console, progress: ProgressLine, caseIndex: Int?, runs: Int) {
        self.json = json
        self.quiet = quiet
        self.console = console
        self.progress = progress
        self.caseIndex = caseIndex
        self.runs = runs
    }

    mutating func print(_ event: CampaignEvent) {
        switch event {
        case .searching(let plan):
            if console.isTerminal && !quiet && !json {
                console.err("… \(plan.target)\(plan.mutant.map { " (\($0))" } ?? ""): \(caseIndex.map { "case \($0)" } ?? "\(runs) cases")\n")
            }
        case .progress(let soFar):
            progress.show(runs: caseIndex == nil ? runs : 1, soFar)
        case .unconfirmed(let plan, let group):
            progress.note("the \(group.failure.kind.rawValue) of case \(group.firstCase) of \(plan.target) did not happen again when the case "
                + "was run once more to shrink it: not reported as a failure of the code under test")
        case .found(let plan, let failing, let seconds):
            found(plan, failing, seconds: seconds)
        case .saveFailed(let reason):
            progress.clear()
            unsaved += 1
            console.err("graph-fuzz: infrastructure error: could not save the case of the failure reported next: \(reason)\n")
        case .sameInterleaving(let found, let earlier):
            progress.note("the \(found.failure.rule) \(found.failure.kind.rawValue) of case \(found.caseIndex) of \(found.plan.target) shrank to the "
                + "interleaving of the \(earlier.rule) \(earlier.kind.rawValue) reported above: the same bug, not reported again")
        case .failure(let found, let corpusFile):
            progress.clear()
            failure(FailureReport(found, corpusFile: corpusFile))
        case .finished(let run, let coverage):
            progress.clear()
            finished(run, coverage)
        }
    }

    /// The next failure to report is known, before its shrink: a line of the report (not with `--quiet`), or a JSON
    /// `found` event.
    private func found(_ plan: SearchPlan, _ failing: CaseFailure, seconds: Double) {
        guard json else {
            guard !quiet else { return }
            progress.clear()
            console.out("graph-fuzz: \(plan.foundLine(failing))\n")
            return
        }
        console.out(JSONValue.object([
            ("event", .string("found")), ("target", .string(plan.target)), ("mutant", .optional(plan.mutant)),
            ("seed", .uint(plan.seed)), ("case", .int(failing.index)), ("rule", .string(failing.failure.rule)),
            ("kind", .string(failing.failure.kind.rawValue)), ("step", failing.failure.step.map { .int($0 + 1) } ?? .null),
            ("message", .string(failing.failure.message)), ("secondsToFound", .double(seconds)),
            ("reproduce", .string(plan.commandLine(case: failing.index))),
        ]).rendered + "\n")
    }

    private func failure(_ report: FailureReport) {
        guard json else {
            console.out("\n" + report.text)
            return
        }
        let found = report.found
        console.out(JSONValue.object([
            ("event", .string("failure")), ("target", .string(found.plan.target)), ("mutant", .optional(found.plan.mutant)),
            ("seed", .uint(found.plan.seed)), ("case", .int(found.caseIndex)), ("rule", .string(found.failure.rule)),
            ("kind", .string(found.failure.kind.rawValue)), ("message", .string(found.failure.message)),
            ("steps", .int(found.counterexample?.steps.count ?? 0)), ("originalSteps", .int(found.originalSteps)),
            ("shrinkAttempts", .int(found.shrink.attempts)), ("shrinkInterrupted", .bool(found.shrink.interrupted)),
            ("secondsToFailure", .double(found.seconds)),
            ("counterexample", .array(report.stepLines.map(JSONValue.string))), ("swift", .string(report.swiftTest)),
            ("corpusFile", .optional(report.corpusFile)),
        ]).rendered + "\n")
    }

    private mutating func finished(_ run: SearchRun, _ coverage: CoverageReport) {
        // Wall time, shrinking and re-running slow cases included: what the run took.
        let rate = run.wallSeconds > 0 ? Double(run.steps) / run.wallSeconds : 0
        if caseIndex == nil { coverageLines += coverage.summaryLines }
        if json {
            for row in coverage.rows {
                console.out(JSONValue.object([
                    ("event", .string("coverage")), ("target", .string(run.plan.target)), ("rule", .string(row.rule)),
                    ("decided", .int(row.decided)), ("cases", .int(run.cases)),
                ]).rendered + "\n")
            }
            // The target's last event is its summary: a consumer has every coverage event of the target when it reads it.
            console.out(JSONValue.object([
                ("event", .string("summary")), ("target", .string(run.plan.target)), ("mutant", .optional(run.plan.mutant)),
                ("seed", .uint(run.plan.seed)), ("cases", .int(run.cases)), ("steps", .int(run.steps)),
                ("seconds", .double(run.wallSeconds)), ("stepsPerSecond", .double(rate.rounded())),
                ("failures", .int(run.failures.count)),
            ]).rendered + "\n")
        }
        // Signatures that share a rule and kind differ in their detail (a trap's code): name it, or they read as one.
        let failures = run.failures.map { (failure: $0.failure, cases: $0.caseCount) }
        let rules = failures.map { item in
            let shared = failures.filter { $0.failure.rule == item.failure.rule && $0.failure.kind == item.failure.kind }.count > 1
            let detail = shared && !item.failure.detail.isEmpty ? " [\(item.failure.detail)]" : ""
            return "\(item.failure.rule) \(item.failure.kind.rawValue)\(detail) ×\(item.cases)"
        }.joined(separator: ", ")
        rows.append([run.plan.target, run.plan.mutant ?? "-", String(run.cases), String(run.steps),
                     (run.failures.isEmpty ? "pass" : "FAIL \(rules)") + (run.interrupted ? " (interrupted)" : ""),
                     "\(Format.seconds(run.wallSeconds)) (\(Int(rate))/s)"])
    }

    /// The summary table (text), the note on ×N, and the coverage lines.
    func printSummary() {
        guard !json else { return }
        console.out("\n" + Format.table(rows))
        if rows.contains(where: { $0[4].contains(" ×") }) {
            console.out("(×N: the number of cases of the run that failed with that signature)\n")
        }
        if !coverageLines.isEmpty { console.out("\n" + coverageLines.joined(separator: "\n") + "\n") }
    }
}
