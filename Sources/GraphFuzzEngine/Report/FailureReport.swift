/// The human-readable report of a shrunk failure: what broke, the shrunk steps, how to reproduce
/// it and the same steps as a Swift test. Deterministic for a seed; timings appear only on the
/// line that starts with "time:".
public struct FailureReport: Sendable {
    public var result: TargetSearchResult
    /// Where the case was saved, if it was.
    public var corpusFile: String?
    /// How many cases of a search that went on after the first failure failed with this
    /// signature (nil: the search stopped at the first).
    public var caseCount: Int?

    public init(result: TargetSearchResult, corpusFile: String? = nil, caseCount: Int? = nil) {
        self.result = result
        self.corpusFile = corpusFile
        self.caseCount = caseCount
    }

    /// The Swift Testing source reproducing the shrunk case.
    public var swiftTest: String {
        guard let found = result.failure, let record = result.counterexample else { return "" }
        let hash = CaseHash.hex(of: record)
        let name = SwiftTestRenderer.functionName(target: result.target, mutant: result.mutant, rule: found.failure.rule, hash: hash)
        let display = "\(result.target) \(found.failure.rule) \(found.failure.kind.rawValue): seed \(result.options.seed) case \(found.caseIndex)"
        return SwiftTestRenderer.test(displayName: display, functionName: name, lines: record.swiftLines)
    }

    /// Numbered, readable steps: the configuration, then each step with what the specification expected.
    public var stepLines: [String] {
        guard let record = result.counterexample else { return [] }
        var lines = [record.config.description]
        for (index, step) in record.steps.enumerated() {
            lines.append("\(index + 1). \(step)    // \(record.expectations[index])")
        }
        return lines
    }

    public var text: String {
        guard let found = result.failure else { return "" }
        let failure = found.failure
        var out = "FAILURE \(result.target)"
        if let mutant = result.mutant { out += " (mutant \(mutant))" }
        out += " — rule \(failure.rule), \(failure.kind.rawValue)\n"
        out += "  \(failure.message)\n"
        out += "  seed \(result.options.seed), case \(found.caseIndex): shrunk \(result.originalSteps) → \(result.counterexample?.steps.count ?? 0) steps in \(found.shrink.attempts) attempts\n"
        if let caseCount { out += "  \(caseCount) \(caseCount == 1 ? "case" : "cases") of the run failed this way\n" }
        out += "  time: \(Format.seconds(found.seconds)) to find and shrink\n"
        for line in stepLines { out += "    \(line)\n" }
        var again = "graph-fuzz --target \(result.target) --seed \(result.options.seed)"
        if let mutant = result.mutant { again += " --mutant \(mutant)" }
        out += "  reproduce: \(again)\n"
        if let corpusFile { out += "  saved: \(corpusFile)\n" }
        out += "  as a Swift test:\n"
        for line in swiftTest.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            out += "    \(line)\n"
        }
        return out
    }
}
