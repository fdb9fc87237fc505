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

/// A named faulty variant of production code, selected with `--mutant`, and the rule it breaks.
public struct Mutant: Sendable, Hashable {
    public var name: String
    public var rule: String
    public var summary: String

    public init(name: String, rule: String, summary: String) {
        self.name = name
        self.rule = rule
        self.summary = summary
    }
}
