/// What cases exercised (coverage), counted per action index and per rule: for one case, or kept across the
/// cases of a chunk and turned into a `Coverage` once.
@usableFromInline
struct Tally {
    /// Whether anything is counted (a search that reports no coverage does not pay for it).
    @usableFromInline let counts: Bool
    @usableFromInline var cases = 0
    /// Per action, the steps that ran it.
    @usableFromInline var ran: [Int]
    /// Per action, the index in `rules` of the rule its last prediction named (an action mostly names one).
    @usableFromInline var ruleOfAction: [Int]
    @usableFromInline var rules = RuleCounts()
    @usableFromInline var checks = RuleCounts()
    /// Per position in a prediction's credits, the index in `rules` of the rule last credited there: an action's
    /// steps mostly credit the same rules in the same order, so most credits are counted without a search.
    @usableFromInline var creditHints: [Int] = []

    @inlinable
    init(actions: Int, counts: Bool) {
        self.counts = counts
        ran = counts ? Array(repeating: 0, count: actions) : []
        ruleOfAction = ran
    }

    /// Counts a step of action `action` and the rules its prediction names: its own, each part's, and the
    /// others it says it decided.
    @inlinable
    mutating func count<O>(_ predicted: Prediction<O>, of action: Int) {
        ran[action] += 1
        rules.count(predicted.rule, hint: &ruleOfAction[action])
        let credits = predicted.credits
        if !credits.isEmpty {
            if creditHints.count < credits.count { creditHints += repeatElement(0, count: credits.count - creditHints.count) }
            for position in credits.indices { rules.count(credits[position].rule, hint: &creditHints[position]) }
        }
    }

    /// Counts a step of action `action` whose prediction named `rule` and credited `credits`.
    mutating func count(rule: String, credits: [String], of action: Int) {
        ran[action] += 1
        rules.count(rule, hint: &ruleOfAction[action])
        for credit in credits { rules.count(credit) }
    }

    /// The counts as a `Coverage` of the actions named `names`, with the precondition checks a chooser
    /// counted (`held`, `failed`; empty when none were).
    @usableFromInline
    func coverage(_ names: [String], held: [Int], failed: [Int]) -> Coverage {
        var coverage = Coverage()
        guard counts else { return coverage }
        coverage.cases = cases
        coverage.actions = names.indices.map {
            Coverage.ActionCount(name: names[$0], ran: ran[$0], held: held.isEmpty ? 0 : held[$0], failed: failed.isEmpty ? 0 : failed[$0])
        }
        for (rule, count) in zip(rules.rules, rules.counts) { coverage.predictions[rule, default: 0] += count }
        for (rule, count) in zip(checks.rules, checks.counts) { coverage.invariants[rule, default: 0] += count }
        return coverage
    }
}

/// Predictions per rule id within one case or chunk: a short list searched from the last hit (a machine names
/// few rules), so counting costs no hashing per step.
@usableFromInline
struct RuleCounts {
    @usableFromInline var rules: [String] = []
    @usableFromInline var counts: [Int] = []
    @usableFromInline var last = 0

    @inlinable init() {}

    @inlinable
    mutating func count(_ rule: String) {
        var hint = last
        count(rule, hint: &hint)
        last = hint
    }

    /// Counts `rule`, looking first at index `hint` (the caller's last hit, updated).
    @inlinable
    mutating func count(_ rule: String, hint: inout Int) {
        if hint < rules.count, rules[hint] == rule {
            counts[hint] += 1
            return
        }
        if let i = rules.firstIndex(of: rule) {
            counts[i] += 1
            hint = i
        } else {
            rules.append(rule)
            counts.append(1)
            hint = rules.count - 1
        }
    }
}
