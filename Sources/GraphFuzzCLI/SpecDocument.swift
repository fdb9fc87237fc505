import GraphFuzzEngine

/// The rule index of docs/spec.md, generated from the targets so the document and the code cannot
/// disagree (a test checks docs/spec.md holds exactly this text between its markers).
package enum SpecDocument {
    package static let beginMarker = "<!-- BEGIN GENERATED: graph-fuzz list --markdown -->"
    package static let endMarker = "<!-- END GENERATED -->"

    package static func markdown(_ registry: Registry) -> String {
        var out = ""
        for target in registry.targets {
            out += "### Target `\(target.name)`\n\n\(target.summary)\n\n"
            out += "| rule | statement | source | confidence | mutants that break it |\n|---|---|---|---|---|\n"
            for rule in target.rules {
                let breakers = target.mutants.filter { $0.declares(rule.id) }.map { "`\($0.name)`" }.joined(separator: ", ")
                out += "| \(rule.id) | \(cell(rule.statement)) | \(cell(rule.source)) | \(rule.confidence) | \(breakers.isEmpty ? "—" : breakers) |\n"
            }
            if !target.mutants.isEmpty {
                out += "\n| mutant | breaks | what it does | why these rules |\n|---|---|---|---|\n"
                for mutant in target.mutants {
                    let reason = mutant.reason.isEmpty ? "the fault is the case \(mutant.rule) forbids" : mutant.reason
                    out += "| `\(mutant.name)` | \(mutant.rules.joined(separator: ", ")) | \(cell(mutant.summary)) | \(cell(reason)) |\n"
                }
            }
            out += "\n"
        }
        return out
    }

    private static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }
}
