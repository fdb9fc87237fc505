/// The human-readable report of a shrunk failure: what broke, the shrunk steps, how to reproduce
/// it and the same steps as a Swift test. Deterministic for a seed; timings appear only on the
/// line that starts with "time:".
package struct FailureReport: Sendable {
    package var found: FoundFailure
    /// Where the case was saved, if it was.
    package var corpusFile: String?
    /// How many cases of a search that went on after the first failure failed with this
    /// signature (nil: the search stopped at the first).
    package var caseCount: Int?
    /// The command that reproduces the failure (nil: `graph-fuzz --target … --seed … --case …`, which runs the
    /// failing case alone, right for the registered targets; a machine checked inside a test names its test instead).
    package var reproduce: String?

    package init(_ found: FoundFailure, corpusFile: String? = nil, caseCount: Int? = nil, reproduce: String? = nil) {
        self.found = found
        self.corpusFile = corpusFile
        self.caseCount = caseCount
        self.reproduce = reproduce
    }

    /// The Swift Testing source reproducing the shrunk case: a test that fails on the code that
    /// failed. Empty when none exists (`noSwiftTestReason` says why): never a test that passes.
    package var swiftTest: String {
        guard let record = found.counterexample else { return "" }
        let hash = CaseHash.hex(of: record)
        let name = SwiftTestRenderer.functionName(target: found.plan.target, mutant: found.plan.mutant, rule: found.failure.rule, hash: hash)
        let display = "\(found.plan.target) \(found.failure.rule) \(found.failure.kind.rawValue): seed \(found.plan.seed) case \(found.caseIndex)"
        if Self.needsScheduler(steps: record.steps, kind: found.failure.kind) {
            // A machine checked in a test is named by that test's own expression; a registered target by its name.
            let subject = reproduce == nil ? "Target.\(found.plan.target)" : "machine"
            var lines = SwiftTestRenderer.replayLines(subject: subject, config: record.config, steps: record.steps)
            if reproduce != nil { lines.insert("// machine: the state machine `\(reproduce!)` checks.", at: 0) }
            return SwiftTestRenderer.test(displayName: display, functionName: name, lines: lines)
        }
        guard SwiftTestRenderer.canFail(record.swiftLines, kind: found.failure.kind) else { return "" }
        var lines = record.swiftLines
        switch found.failure.kind {
        case .crash: lines.insert("// Its last step traps on the code that failed, taking the test process down with it.", at: 0)
        case .hang: lines.insert("// Its last step never returns on the code that failed.", at: 0)
        default: break
        }
        return SwiftTestRenderer.test(displayName: display, functionName: name, lines: lines)
    }

    /// Whether a case with these steps, failing with this kind, needs the case's scheduler to reproduce (a
    /// concurrent step's interleaving): its Swift test replays it through the harness (`GraphFuzzTest.replay`).
    package static func needsScheduler(steps: [TraceStep], kind: FailureKind?) -> Bool {
        steps.contains { $0.name == "concurrently" } || [.linearizability, .deadlock, .livelock].contains(kind)
    }

    /// Why there is no Swift test, when `swiftTest` is empty.
    package var noSwiftTestReason: String {
        guard found.counterexample != nil else {
            return "none: the failure did not happen again when its case was re-run, so there are no steps to turn into a test"
        }
        return "none: target \(found.plan.target) renders no Swift code that can fail for these steps "
            + "(its machine's swiftLines gives no #expect); reproduce it with the command above"
    }

    /// Numbered, readable steps: the configuration (when the machine draws one), then each step with what the
    /// specification expected.
    package var stepLines: [String] {
        guard let record = found.counterexample else { return [] }
        var lines = record.config.arguments.isEmpty ? [] : [record.config.description]
        lines += record.configLines.map { "   " + $0 }
        for (index, step) in record.steps.enumerated() {
            // A concurrent step's expectation may hold its interleaving's lines: they go under the step.
            let expectation = record.expectations[index].split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("\(index + 1). \(step)    // \(expectation[0])")
            lines += expectation.dropFirst().map { "  " + $0 }
        }
        return lines
    }

    package var text: String {
        let failure = found.failure, plan = found.plan
        var out = "FAILURE \(plan.target)"
        if let mutant = plan.mutant { out += " (mutant \(mutant))" }
        out += " — rule \(failure.rule), \(failure.kind.rawValue)"
        if found.isMisattributed, let mutant = plan.mutant {
            out += " (mutant \(mutant) breaks \(plan.declaredRules.joined(separator: "/")); this run found \(failure.rule))"
        }
        out += "\n"
        // A message of several lines (a concurrent step's, with its interleaving) keeps its lines under the first.
        out += "  \(failure.message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  "))\n"
        let steps = "\(found.originalSteps) → \(found.counterexample?.steps.count ?? 0) steps"
        out += found.shrink.interrupted
            ? "  seed \(plan.seed), case \(found.caseIndex): shrink interrupted after \(found.shrink.attempts) "
                + "\(found.shrink.attempts == 1 ? "attempt" : "attempts"): \(steps), "
                + "not minimal (a run that shrinks it to the end replaces its saved case)\n"
            : "  seed \(plan.seed), case \(found.caseIndex): shrunk \(steps) in \(found.shrink.attempts) attempts\n"
        if let caseCount { out += "  \(caseCount) \(caseCount == 1 ? "case" : "cases") of the run failed this way\n" }
        for also in found.alsoBroken {
            let first = also.failure.message.split(separator: "\n").first.map(String.init) ?? ""
            out += "  the same interleaving also broke \(also.failure.rule) (\(also.failure.kind.rawValue), \(also.caseCount) "
                + "\(also.caseCount == 1 ? "case" : "cases"), first case \(also.caseIndex)): \(first)\n"
        }
        out += "  time: \(Format.seconds(found.seconds)) to find and shrink\n"
        for line in stepLines { out += "    \(line)\n" }
        out += "  reproduce: \(reproduce ?? plan.commandLine(case: found.caseIndex))\n"
        if let corpusFile { out += "  saved: \(corpusFile)\n" }
        let test = swiftTest
        guard !test.isEmpty else {
            // A machine that renders no Swift code (not `SwiftExportable`: its lines are comments) was never asked for a test.
            if found.counterexample.map({ $0.swiftLines.contains { !$0.hasPrefix("//") } }) ?? true {
                out += "  as a Swift test: \(noSwiftTestReason)\n"
            }
            return out
        }
        out += "  as a Swift test:\n"
        for line in test.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            out += "    \(line)\n"
        }
        return out
    }
}

extension SearchPlan {
    /// `graph-fuzz` run of case `index` alone: the target, seed, case, the steps per case when not the target's
    /// own, and the mutant.
    package func commandLine(case index: Int) -> String {
        var line = "graph-fuzz --target \(target) --seed \(seed) --case \(index)"
        if defaultSteps != maxSteps { line += " --steps \(maxSteps)" }
        if let mutant { line += " --mutant \(mutant)" }
        return line
    }

    /// The line that tells a failure found before its shrink (`CampaignEvent.found`): the target, the rule and kind,
    /// the case and the step it failed at, and the command that runs that case alone (and shrinks it).
    package func foundLine(_ failing: CaseFailure) -> String {
        let failure = failing.failure
        var line = "found \(target)\(mutant.map { " (mutant \($0))" } ?? "") — rule \(failure.rule), \(failure.kind.rawValue), "
        line += "seed \(seed), case \(failing.index)\(failure.step.map { ", step \($0 + 1)" } ?? ""); shrinking it "
        return line + "(reproduce: \(commandLine(case: failing.index)))"
    }
}
