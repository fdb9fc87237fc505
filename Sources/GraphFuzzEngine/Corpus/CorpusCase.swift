/// One regression case: a shrunk counterexample kept forever in Corpus/.
///
/// The steps are a generator-independent trace, so the case replays after generators change; the
/// recorded choices and the generator fingerprint say how it was made and reveal drift.
package struct CorpusCase: Equatable, Sendable {
    package static let formatVersion = 1

    package var target: String
    /// The mutant it documents, or nil for a failure found in production code.
    package var mutant: String?
    /// The rule it broke and how.
    package var rule: String
    package var kind: FailureKind
    package var seed: UInt64
    package var caseIndex: Int
    /// The generator fingerprint of the target when the case was made.
    package var fingerprint: String
    package var choices: ChoiceSequence
    package var config: TraceStep
    package var steps: [TraceStep]
    /// The shrink that made `steps` was interrupted (SIGINT, SIGTERM): the case fails, but is not minimal, and the
    /// next case saved for the same failure replaces it (`Corpus.write`).
    package var shrinkInterrupted: Bool
    /// 1-based file lines of the config and of each step (set when parsed; derived otherwise).
    var configLine = 0
    var stepLines: [Int] = []

    package init(target: String, mutant: String?, rule: String, kind: FailureKind, seed: UInt64, caseIndex: Int,
                fingerprint: String, choices: ChoiceSequence, config: TraceStep, steps: [TraceStep], shrinkInterrupted: Bool = false) {
        self.target = target
        self.mutant = mutant
        self.rule = rule
        self.kind = kind
        self.seed = seed
        self.caseIndex = caseIndex
        self.fingerprint = fingerprint
        self.choices = choices
        self.config = config
        self.steps = steps
        self.shrinkInterrupted = shrinkInterrupted
    }

    /// The 1-based line of step `index` (nil: the config line) in this case's file.
    package func line(ofStep index: Int?) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index else {
            return configLine > 0 ? configLine : (lines.firstIndex { $0.hasPrefix("config:") } ?? 0) + 1
        }
        if index < stepLines.count { return stepLines[index] }
        let first = lines.firstIndex { $0.hasPrefix("step:") } ?? lines.count
        return first + index + 1
    }

    /// True when both document the same failure with the same steps (how they were found —
    /// seed, case, choices, generator fingerprint — aside).
    package func sameTrace(as other: CorpusCase) -> Bool {
        target == other.target && mutant == other.mutant && rule == other.rule && kind == other.kind
            && config == other.config && steps == other.steps
    }

    /// True when both record the same failure: the same target, mutant, rule and kind, found at the same case of
    /// the same seed (shrunk as far, or not).
    package func sameFailure(as other: CorpusCase) -> Bool {
        target == other.target && mutant == other.mutant && rule == other.rule && kind == other.kind && seed == other.seed
            && caseIndex == other.caseIndex
    }

    /// Expected outcomes: production code passes; the mutant (if any) fails with `rule`.
    package var expectations: String {
        mutant == nil ? "pass" : "pass; mutant \(mutant!) fails \(rule)"
    }

    /// The file name: target, rule (each as `slug` writes it) and a content hash of the trace.
    package var fileName: String {
        let hash = CaseHash.hex(CaseHash.fnv1a(([config] + steps).map(\.description).joined(separator: "\n") + (mutant ?? "")))
        return "\(Self.slug(target))-\(Self.slug(rule))-\(hash.prefix(10)).case"
    }

    /// `text` as a safe part of a file name: ASCII letters, digits and `_` kept, every other run of characters one
    /// `-`, at most 48 characters ("most recent first, each once" gives "most-recent-first-each-once"; an id such as
    /// `G25` or a target's name is itself).
    static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.count > 48 {
            slug = String(slug.prefix(48))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug.isEmpty ? "case" : slug
    }

    /// The `shrink:` line of a case whose shrink was interrupted.
    static let interruptedMark = "interrupted (not minimal: the next case saved for this failure replaces this file)"

    /// The file's text.
    package var text: String {
        var lines = [
            "# graph-fuzz regression case: readable, diffable; replay with `graph-fuzz replay FILE`.",
            "graph-fuzz-case: \(CorpusCase.formatVersion)",
            "target: \(target)",
            "mutant: \(mutant ?? "none")",
            "rule: \(rule)",
            "kind: \(kind.rawValue)",
            "expect: pass",
        ]
        if mutant != nil { lines.append("expect-mutant: fail \(rule)") }
        lines += [
            "seed: \(seed)",
            "case: \(caseIndex)",
        ]
        if shrinkInterrupted { lines.append("shrink: \(CorpusCase.interruptedMark)") }
        lines += [
            "fingerprint: \(fingerprint)",
            "choices: \(choices)",
            "config: \(config)",
        ]
        lines += steps.map { "step: \($0)" }
        lines.append("end: \(steps.count) steps")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A corpus file that cannot be read: names the file and the 1-based line.
package struct CorpusError: Error, Equatable, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var message: String

    package init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    package var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
