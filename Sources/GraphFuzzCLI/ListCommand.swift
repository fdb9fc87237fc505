import GraphFuzzEngine

/// `graph-fuzz list`: targets, their mutants with the rule each breaks, and the rules; `--markdown`, the rule index
/// of docs/spec.md (`SpecDocument`).
struct ListCommand: Command {
    static let name = "list"
    static let usage = "list [--json|--markdown]"
    static let help = "targets, their mutants with the rule each breaks, the rules"

    var json: Bool
    var markdown: Bool

    init(_ flags: inout Flags) throws(UsageError) {
        json = try flags.has("--json")
        markdown = try flags.has("--markdown")
        if json && markdown { throw UsageError("list: --json and --markdown cannot be combined (choose one)") }
    }

    func run(_ context: CommandContext) -> Int32 {
        let console = context.console
        if markdown {
            console.out(SpecDocument.markdown(context.registry))
            return 0
        }
        for target in context.registry.targets {
            if json {
                console.out(JSONValue.object([("event", .string("target")), ("target", .string(target.name))]).rendered + "\n")
                for mutant in target.mutants {
                    console.out(JSONValue.object([("event", .string("mutant")), ("target", .string(target.name)),
                                                  ("mutant", .string(mutant.name)), ("rule", .string(mutant.rule)),
                                                  ("rules", .array(mutant.rules.map(JSONValue.string)))]).rendered + "\n")
                }
                for rule in target.rules {
                    console.out(JSONValue.object([("event", .string("rule")), ("rule", .string(rule.id)),
                                                  ("statement", .string(rule.statement))]).rendered + "\n")
                }
                continue
            }
            console.out("target \(target.name): \(target.summary)\n")
            if !target.mutants.isEmpty {
                console.out("  mutants:\n")
                console.out(Format.table(target.mutants.map { ["    \($0.name)", "breaks \($0.rules.joined(separator: ", "))", $0.summary] }))
            }
            console.out("  rules:\n")
            console.out(Format.table(target.rules.map { ["    \($0.id)", "[\($0.confidence)]", $0.statement, "(\($0.source))"] }))
            console.out("\n")
        }
        return 0
    }
}
