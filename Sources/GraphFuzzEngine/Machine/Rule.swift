/// A rule of an executable specification: an id (G4, B2, M1, C3, S2 …), the statement, and where it
/// comes from. docs/spec.md lists the same ids.
public struct Rule: Sendable, Hashable {
    public var id: String
    public var statement: String
    /// The seed section or research rule it is taken from.
    public var source: String
    /// The evidence level: documented, many, single, unknown (a parameter), or design.
    public var confidence: String

    public init(id: String, statement: String, source: String, confidence: String = "D") {
        self.id = id
        self.statement = statement
        self.source = source
        self.confidence = confidence
    }
}

/// A named faulty variant of production code, selected with `--mutant`, and the rules it may break:
/// a declared set (usually one rule), justified by what the fault really breaks. A run of the mutant
/// that fails another rule is a misattribution, reported as such (`bench`, the report's headline).
public struct Mutant: Sendable, Hashable {
    public var name: String
    /// The rules the fault may break, the one it is named for first.
    public var rules: [String]
    public var summary: String
    /// Why the fault may break each declared rule (docs/spec.md's mutant table shows it); empty for a mutant
    /// declaring one rule, whose fault is the case that rule forbids.
    public var reason: String

    /// The rule the mutant is named for (the first declared).
    public var rule: String { rules[0] }

    public init(name: String, rule: String, summary: String) {
        self.init(name: name, rules: [rule], summary: summary)
    }

    /// A mutant that may break any of `rules` (not empty; the rule it is named for first).
    public init(name: String, rules: [String], summary: String, reason: String = "") {
        precondition(!rules.isEmpty, "mutant \(name) declares no rule")
        self.name = name
        self.rules = rules
        self.summary = summary
        self.reason = reason
    }

    /// Whether `rule` is one this mutant declares it may break.
    public func declares(_ rule: String) -> Bool { rules.contains(rule) }
}
