import GraphFuzzEngine

/// `graph-fuzz coverage`: runs each target's cases in this process through the one pipeline (`Campaign`) and
/// prints how often each rule was exercised, the rare and never-exercised rules and the health
/// warnings. Exit 1 when there is a warning, so CI can hold the line.
struct CoverageCommand: Command {
    static let name = "coverage"
    static let usage = "coverage [--target NAME|all] [--runs N] [--seed N] [--steps N]"
    static let help = """
        how often each rule was exercised, and health warnings
        (exit 1 when there is a warning)
        """

    var target: String
    var runs: Int
    var seed: UInt64
    var steps: Int?

    init(_ flags: inout Flags) throws(UsageError) {
        target = try flags.string("--target") ?? "all"
        runs = try flags.int("--runs", in: FlagLimits.runs) ?? SearchLoop.defaultRuns
        seed = try flags.seed("--seed") ?? 1
        steps = try flags.int("--steps", in: FlagLimits.steps)
    }

    func run(_ context: CommandContext) throws(UsageError) -> Int32 {
        let registry = context.registry, console = context.console
        let targets: [Target]
        if target == "all" { targets = registry.targets } else {
            guard let found = registry.target(named: target) else {
                throw UsageError("coverage --target: unknown target '\(target)' (known: \(registry.targets.map(\.name).joined(separator: ", ")), all)")
            }
            targets = [found]
        }
        var table: [[String]] = []
        var closing: [String] = []
        var warnings = 0
        for target in targets {
            let report: CoverageReport
            do { report = try target.coverage(options: SearchOptions(seed: seed, runs: runs, steps: steps)) } catch {
                console.err("graph-fuzz: \(error)\n")
                return error.exitCode
            }
            table += table.isEmpty ? report.table : Array(report.table.dropFirst())
            closing += report.summaryLines
            warnings += report.warnings.count
        }
        console.out("graph-fuzz coverage: seed \(seed), \(runs) cases per target\n\n" + Format.table(table))
        if !closing.isEmpty { console.out("\n" + closing.joined(separator: "\n") + "\n") }
        return warnings > 0 ? 1 : 0
    }
}
