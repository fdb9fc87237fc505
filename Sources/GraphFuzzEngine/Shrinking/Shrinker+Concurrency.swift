/// A pass for cases with concurrent steps, whose scheduling decisions (`.schedule` spans) sit between the
/// arguments of consecutive steps and push them out of `redistribute`'s reach.
extension Shrinker {
    /// Lowers two argument values together, by the same amount, however far apart they are (`redistribute`
    /// handles pairs less than 6 choices apart): a race between a deposit and two withdrawals fails only while
    /// the amounts keep their relation, so neither can be lowered alone. Argument values are the choices
    /// with a bound above 1 outside continue flags, actions and scheduling decisions. Runs only on
    /// sequences that made scheduling decisions; stops at the first improvement.
    func redistributeAcrossSchedules() -> Bool {
        guard let values = concurrentArgumentValues() else { return false }
        for (a, i) in values.enumerated() where !outOfBudget {
            for j in values[(a + 1)...] where j - i >= 6 && !outOfBudget {
                if i < raw.count, j < raw.count, raw[i] > 0, raw[j] > 0, pairSearch(i, j, together: true) { return true }
            }
        }
        return false
    }

    /// Deletes a branch of a concurrent step (an `.element` span inside a step that made scheduling
    /// decisions), alone and then, in the same candidate, with one argument value before it lowered — one
    /// lower, then to 0, the nearest first: a withdrawal that ran beside the deposit it depends on goes, and the deposit shrinks
    /// by what it took. A step with one branch fewer makes fewer scheduling decisions, so a candidate that
    /// does not fail as it is is realigned: the step keeps what it then consumed, followed by the later steps
    /// as they were. Runs only on sequences that made scheduling decisions; stops at the first improvement.
    func deleteBranchLoweringValue() -> Bool {
        guard let values = concurrentArgumentValues() else { return false }
        let steps = stepSpans().filter { step in spans.contains { $0.label == .schedule && step.range.contains($0.start) } }
        for step in steps.reversed() where !outOfBudget {
            let branches = spans.filter { $0.label == .element && $0.count > 1 && step.start <= $0.start && $0.end <= step.end }
            for branch in branches.reversed() where branch.end <= raw.count && !outOfBudget {
                let deleted = removing(branch.range)
                if realigned(deleted, stepAt: step.start, depth: step.depth, followedByChoicesFrom: step.end) { return true }
                for p in values.reversed() where p < branch.start && !outOfBudget {
                    for value in Set([raw[p] - 1, 0]).sorted(by: >) where !outOfBudget {
                        var candidate = deleted
                        candidate[p] = value
                        if realigned(candidate, stepAt: step.start, depth: step.depth, followedByChoicesFrom: step.end) { return true }
                    }
                }
            }
        }
        return false
    }

    /// Lowers each decision of a schedule (its `.schedule` span: a portfolio's member, PCT's draws, cancellation
    /// points, picks) to 0, the last schedule first and its first decision first; then tries the schedule as one
    /// deviation from FIFO: every decision 0 but one, which is 1, the earliest first. A pick changed changes which jobs
    /// the next steps of the run can choose from, so they make other decisions, more or fewer: a candidate that does
    /// not fail as it is is realigned, its step keeping what it then consumed, followed by the later steps as they were
    /// (`minimise-choices` lowers choices without realigning). Stops at the first improvement.
    func lowerSchedulePicks() -> Bool {
        for schedule in spans.filter({ $0.label == .schedule }).reversed() where schedule.end <= raw.count && !outOfBudget {
            guard let step = step(holding: schedule) else { continue }
            for p in schedule.range where raw[p] > 0 && !outOfBudget {
                var candidate = raw
                candidate[p] = 0
                if realigned(candidate, stepAt: step.start, depth: step.depth, followedByChoicesFrom: step.end) { return true }
            }
            for p in schedule.range where !outOfBudget {
                var candidate = raw
                for q in schedule.range { candidate[q] = q == p ? 1 : 0 }
                if realigned(candidate, stepAt: step.start, depth: step.depth, followedByChoicesFrom: step.end) { return true }
            }
        }
        return false
    }

    /// The positions of non-zero argument values (bound above 1, outside continue flags, actions and
    /// scheduling decisions), or nil when the sequence made no scheduling decisions.
    private func concurrentArgumentValues() -> [Int]? {
        let schedules = spans.filter { $0.label == .schedule }
        guard !schedules.isEmpty else { return nil }
        var isValue = argumentPositions()
        for span in schedules {
            for q in span.range where q < raw.count { isValue[q] = false }
        }
        return raw.indices.filter { isValue[$0] && bounds[$0] > 1 && raw[$0] > 0 }
    }
}

extension ShrinkPass {
    /// Deletes a branch of a concurrent step, alone or while lowering an argument value before it (only sequences
    /// with scheduling decisions).
    package static let deleteBranchLowerValue = ShrinkPass("delete-branch-lower-value", .expensive) { $0.deleteBranchLoweringValue() }
    /// Lowers a schedule's decisions to 0 or to one deviation from FIFO, realigning the later steps (only sequences
    /// with scheduling decisions).
    package static let lowerSchedulePicks = ShrinkPass("lower-schedule-picks", .expensive) { $0.lowerSchedulePicks() }
    /// Lowers two argument values of a concurrent case together, however far apart (only sequences with
    /// scheduling decisions).
    package static let redistributeAcrossSchedules = ShrinkPass("redistribute-across-schedules", .expensive) { $0.redistributeAcrossSchedules() }
}
