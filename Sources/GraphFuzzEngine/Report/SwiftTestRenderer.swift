/// Renders a counterexample as a Swift Testing test that reproduces it against the production API.
package enum SwiftTestRenderer {
    /// A test function name from its parts, made a valid identifier.
    package static func functionName(target: String, mutant: String?, rule: String, hash: String) -> String {
        let raw = [target, mutant ?? "production", rule, hash].joined(separator: "_")
        var name = ""
        var upperNext = false
        for c in raw.unicodeScalars {
            if ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) {
                name.unicodeScalars.append(upperNext ? Unicode.Scalar(String(c).uppercased())! : c)
                upperNext = false
            } else if c == "_" {
                name += "_"
            } else {
                upperNext = true
            }
        }
        return name.first.map { $0.isNumber } == true ? "case_" + name : name
    }

    /// True when a test with body `lines` can fail the way a failure of `kind` did: a crash or
    /// hang needs code to run; any other kind an `#expect`, `#require` or recorded issue. A body of
    /// comments only (the skeleton a machine without a Swift rendering gets) always passes.
    package static func canFail(_ lines: [String], kind: FailureKind) -> Bool {
        let code = lines.map { line in String(line.drop { $0 == " " || $0 == "\t" }) }.filter { !$0.isEmpty && !$0.hasPrefix("//") }
        switch kind {
        case .crash, .hang: return !code.isEmpty
        default: return code.contains { $0.contains("#expect") || $0.contains("#require") || $0.contains("Issue.record") }
        }
    }

    /// The body of a test that replays a case with a concurrent step through the harness (`GraphFuzzTest.replay`):
    /// its steps as their traces, so the step's schedule (`schedule:`) and cancellations (`cancel:`) run again on the
    /// case's scheduler, and every observation is checked against the specification. `subject` is the replayed
    /// target or machine as Swift (`Target.graph`).
    package static func replayLines(subject: String, config: TraceStep, steps: [TraceStep]) -> [String] {
        var lines = ["// The concurrent step's interleaving (schedule: the pick at each job that had a choice, oldest first) and",
                     "// cancellations (cancel: each branch's point) run again on the case's scheduler; an issue says what broke."]
        lines.append("#expect(GraphFuzzTest.replay(\(subject),")
        lines.append("    config: \(TraceValue.quote(config.description)),")
        lines.append("    steps: [")
        lines += steps.map { "        \(TraceValue.quote($0.description))," }
        lines.append("    ]))")
        return lines
    }

    /// The source of one `@Test` whose body is `lines`.
    package static func test(displayName: String, functionName: String, lines: [String]) -> String {
        var out = "@Test(\(TraceValue.quote(displayName)))\n"
        out += "func \(functionName)() async throws {\n"
        for line in lines { out += line.isEmpty ? "\n" : "    \(line)\n" }
        out += "}\n"
        return out
    }
}
