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

/// Formatting shared by reports.
public enum Format {
    public static func seconds(_ value: Double) -> String {
        let milliseconds = (value * 1000).rounded()
        return String(Int(milliseconds) / 1000) + "." + pad(Int(milliseconds) % 1000, 3) + "s"
    }

    public static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
    }

    /// Left-aligned columns separated by two spaces.
    public static func table(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = Array(repeating: 0, count: first.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = Swift.max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

/// A stable content hash (FNV-1a, 64-bit) of a case: names corpus files and test functions.
public enum CaseHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    public static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// The first 8 hex digits of the hash of the case's trace.
    public static func hex(of record: CaseRecord) -> String {
        String(hex(fnv1a(([record.config] + record.steps).map(\.description).joined(separator: "\n"))).prefix(8))
    }
}
