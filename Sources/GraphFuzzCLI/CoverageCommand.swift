import GraphFuzzEngine

/// Options of `graph-fuzz coverage`.
package struct CoverageArguments: Equatable, Sendable {
    package var target = "all"
    package var runs = SearchLoop.defaultRuns
    package var seed: UInt64 = 1
    package var steps: Int?

    /// Parses `[--target NAME|all] [--runs N] [--seed N] [--steps N]`.
    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> CoverageArguments {
        var rest = arguments
        var result = CoverageArguments()
        while let flag = rest.popFirst() {
            guard ["--target", "--runs", "--seed", "--steps"].contains(flag) else {
                throw UsageError("coverage: unknown argument '\(flag)' (coverage takes --target NAME, --runs N, --seed N, --steps N)")
            }
            guard let value = rest.popFirst() else { throw UsageError("coverage: \(flag) needs a value") }
            switch flag {
            case "--target": result.target = value
            case "--runs": result.runs = try ArgumentParser.positiveInt("coverage --runs", value, within: FlagLimits.runs)
            case "--steps": result.steps = try ArgumentParser.positiveInt("coverage --steps", value, within: FlagLimits.steps)
            default:
                result.seed = try ArgumentParser.seed("coverage --seed", value)
            }
        }
        return result
    }
}

/// `graph-fuzz coverage`: runs each target's cases in this process through the search loop and
/// prints how often each rule was exercised, the rare and never-exercised rules and the health
/// warnings. Exit 1 when there is a warning, so CI can hold the line.
struct CoverageCommand {
    var arguments: CoverageArguments
    var registry: Registry
    var console: Console

    func execute() throws(UsageError) -> Int32 {
        let targets: [Target]
        if arguments.target == "all" { targets = registry.targets } else {
            guard let target = registry.target(named: arguments.target) else {
                throw UsageError("coverage --target: unknown target '\(arguments.target)' (known: \(registry.targets.map(\.name).joined(separator: ", ")), all)")
            }
            targets = [target]
        }
        var table: [[String]] = []
        var closing: [String] = []
        var warnings = 0
        for target in targets {
            let report: CoverageReport
            do { report = try target.coverage(options: SearchOptions(seed: arguments.seed, runs: arguments.runs), maxSteps: arguments.steps) } catch {
                console.err("graph-fuzz: internal error: \(error)\n")
                return 3
            }
            table += table.isEmpty ? report.table : Array(report.table.dropFirst())
            closing += report.summaryLines
            warnings += report.warnings.count
        }
        console.out("graph-fuzz coverage: seed \(arguments.seed), \(arguments.runs) cases per target\n\n" + Format.table(table))
        if !closing.isEmpty { console.out("\n" + closing.joined(separator: "\n") + "\n") }
        return warnings > 0 ? 1 : 0
    }
}
