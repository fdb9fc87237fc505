/// A search's rule coverage, read against the target's rules: per rule how many predictions and
/// invariant checks it decided, the rules exercised rarely or never, and health warnings in the
/// spirit of Hypothesis' health checks (too many rejected cases, a rule never exercised, an
/// action that never ran or whose precondition never held). Rows are in the target's rule order, so the report is
/// deterministic.
package struct CoverageReport: Sendable, Equatable {
    /// One rule's count.
    package struct Row: Sendable, Equatable {
        package var rule: String
        /// Predictions plus invariant checks it decided.
        package var decided: Int
    }

    /// A rule is rare when it decided fewer than one check per this many cases.
    package static let defaultRareEvery = 1000
    /// More than this share of rejected cases is a health warning.
    package static let maxRejectedShare = 0.5

    package var target: String
    package var cases: Int
    package var rejected: Int
    package var rows: [Row]
    package var actions: [Coverage.ActionCount]
    package var rareEvery: Int

    /// Reads `coverage` (of `cases` cases, `rejected` of them rejected) against `rules`; rule ids
    /// the coverage holds that `rules` does not name are added after them, sorted.
    package init(target: String, rules: [Rule], coverage: Coverage, cases: Int, rejected: Int, rareEvery: Int = defaultRareEvery) {
        self.target = target
        self.cases = cases
        self.rejected = rejected
        self.rareEvery = rareEvery
        var decided = coverage.predictions
        decided.merge(coverage.invariants, uniquingKeysWith: +)
        let named = Set(rules.map(\.id))
        let extra = decided.keys.filter { !named.contains($0) }.sorted()
        rows = rules.map { Row(rule: $0.id, decided: decided[$0.id] ?? 0) } + extra.map { Row(rule: $0, decided: decided[$0] ?? 0) }
        actions = coverage.actions
    }

    /// Rules that decided nothing.
    package var never: [String] { rows.filter { $0.decided == 0 }.map(\.rule) }
    /// Rules exercised, but fewer than once per `rareEvery` cases.
    package var rare: [Row] { rows.filter { $0.decided > 0 && $0.decided * rareEvery < cases } }

    /// Health warnings, each one line; empty when the run was healthy.
    package var warnings: [String] {
        var out: [String] = []
        if cases > 0 && Double(rejected) > Double(cases) * CoverageReport.maxRejectedShare {
            out.append("\(target): \(rejected) of \(cases) cases were rejected (more than \(Int(CoverageReport.maxRejectedShare * 100))%): "
                + "the generators waste most cases")
        }
        for rule in never { out.append("\(target): rule \(rule) was never exercised in \(cases) cases") }
        for action in actions where action.ran == 0 {
            out.append(action.held == 0 && action.failed > 0 ? "\(target): the precondition of action \(action.name) never held (\(action.failed) checks)"
                                                             : "\(target): action \(action.name) never ran in \(cases) cases")
        }
        return out
    }

    /// The summary's closing lines: the rare and never-exercised rules, then the warnings.
    package var summaryLines: [String] {
        var lines: [String] = []
        if !rare.isEmpty {
            lines.append("\(target): rules exercised in fewer than 1 in \(rareEvery) cases: "
                + rare.map { "\($0.rule) (\($0.decided))" }.joined(separator: ", "))
        }
        if !never.isEmpty { lines.append("\(target): rules never exercised: \(never.joined(separator: ", "))") }
        return lines + warnings.map { "warning: \($0)" }
    }

    /// The table: each rule with its count and its share of cases, then each action.
    package var table: [[String]] {
        var rows = [["target", "rule", "decided", "per case", "note"]]
        for row in self.rows {
            let note = row.decided == 0 ? "never" : row.decided * rareEvery < cases ? "rare" : ""
            rows.append([target, row.rule, String(row.decided), CoverageReport.perCase(row.decided, cases), note])
        }
        return rows
    }

    /// `decided / cases` with two decimals ("0.03"), "-" without cases.
    static func perCase(_ decided: Int, _ cases: Int) -> String {
        guard cases > 0 else { return "-" }
        let hundredths = (decided * 100 + cases / 2) / cases
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

extension Target {
    /// Runs the cases of `options` in this process (`Campaign`) and reads what they exercised against this target's
    /// rules (failures are found and shrunk as in any run, and not reported here).
    package func coverage(mutant: String? = nil, options: SearchOptions) throws(RunError) -> CoverageReport {
        var report = CoverageReport(target: name, rules: rules, coverage: Coverage(), cases: 0, rejected: 0)
        _ = try Campaign(selection: [(self, mutant)], options: options).run { event in
            if case .finished(_, let coverage) = event { report = coverage }
        }
        return report
    }
}
