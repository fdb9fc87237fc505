extension CorpusCase {
    /// Parses a corpus file's text. `file` is used in error messages only.
    package init(parsing text: String, file: String) throws(CorpusError) {
        func fail(_ line: Int?, _ message: String) -> CorpusError { CorpusError(file: file, line: line, message: message) }
        var fields: [(key: String, value: Substring, line: Int)] = []
        var steps: [(TraceStep, Int)] = []
        var config: (TraceStep, Int)?
        var end: (Substring, Int)?
        // "\r\n" is one Character: files saved with Windows line ends split on it too.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            if let end { throw fail(number, "text after the 'end:' line (line \(end.1))") }
            guard let colon = line.firstIndex(of: ":") else { throw fail(number, "expected 'key: value' (is the file truncated?)") }
            let key = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingSpaces
            switch key {
            case "end":
                end = (value, number)
            case "step", "config":
                let step: TraceStep
                do { step = try TraceStep(parsing: value) } catch { throw fail(number, "\(key): \(error.message)") }
                if key == "step" { steps.append((step, number)) } else { config = (step, number) }
            default:
                if fields.contains(where: { $0.key == key }) { throw fail(number, "'\(key)' appears twice") }
                fields.append((key, value, number))
            }
        }
        guard !fields.isEmpty || config != nil else { throw fail(nil, "empty file: not a graph-fuzz case") }
        func field(_ key: String) throws(CorpusError) -> (Substring, Int) {
            guard let found = fields.first(where: { $0.key == key }) else { throw fail(nil, "missing '\(key):' line") }
            return (found.value, found.line)
        }
        let (version, versionLine) = try field("graph-fuzz-case")
        guard Int(version) == CorpusCase.formatVersion else {
            throw fail(versionLine, "unknown format version '\(version)' (this graph-fuzz reads version \(CorpusCase.formatVersion))")
        }
        let known: Set<String> = ["graph-fuzz-case", "target", "mutant", "rule", "kind", "expect", "expect-mutant", "seed", "case", "shrink",
                                  "fingerprint", "choices"]
        if let unknown = fields.first(where: { !known.contains($0.key) }) {
            throw fail(unknown.line, "unknown field '\(unknown.key)'")
        }
        target = String(try field("target").0)
        let mutantText = String(try field("mutant").0)
        mutant = mutantText == "none" ? nil : mutantText
        rule = String(try field("rule").0)
        let (kindText, kindLine) = try field("kind")
        guard let kind = FailureKind(rawValue: String(kindText)) else { throw fail(kindLine, "unknown kind '\(kindText)'") }
        self.kind = kind
        let (expect, expectLine) = try field("expect")
        guard expect == "pass" else { throw fail(expectLine, "expect must be 'pass' (production code passes every corpus case)") }
        if let mutant {
            let (expectMutant, line) = try field("expect-mutant")
            guard expectMutant == "fail \(rule)" else { throw fail(line, "expect-mutant must be 'fail \(rule)' for mutant \(mutant)") }
        }
        let (seedText, seedLine) = try field("seed")
        guard let seed = UInt64(seedText) else { throw fail(seedLine, "seed '\(seedText)' is not a non-negative integer") }
        self.seed = seed
        let (caseText, caseLine) = try field("case")
        guard let caseIndex = Int(caseText), caseIndex >= 0 else { throw fail(caseLine, "case '\(caseText)' is not a non-negative integer") }
        self.caseIndex = caseIndex
        if let shrink = fields.first(where: { $0.key == "shrink" }) {
            guard shrink.value.hasPrefix("interrupted") else { throw fail(shrink.line, "shrink must be 'interrupted' (or the line left out)") }
            shrinkInterrupted = true
        } else {
            shrinkInterrupted = false
        }
        fingerprint = String(try field("fingerprint").0)
        let (choicesText, choicesLine) = try field("choices")
        guard let choices = ChoiceSequence(parsing: choicesText) else { throw fail(choicesLine, "choices must be non-negative integers separated by spaces") }
        self.choices = choices
        guard let config else { throw fail(nil, "missing 'config:' line") }
        guard let end else {
            throw fail(lines.count, "truncated: the file ends without its 'end: N steps' line")
        }
        guard end.0 == "\(steps.count) steps" else {
            throw fail(end.1, "truncated or edited: 'end:' says \(end.0) but the file has \(steps.count) steps")
        }
        self.config = config.0
        self.steps = steps.map(\.0)
        stepLines = steps.map(\.1)
        configLine = config.1
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return s
    }
}
