/// A configuration choice changed together with the deletion of early steps: a configuration that
/// starts a case further on (a richer start, Hypothesis' `@initialize`) can stand for the steps that
/// built the same state. Lowering alone never finds it (the richer start is a higher value), and
/// deleting those steps alone loses what they built. A machine whose configuration cannot start a case
/// further on (`StateMachine.configurationStandsForSteps`) draws it in a `.parameters` span instead, and
/// these passes try nothing; one that can draws the choices that cannot (a backend) with `Arguments.parameters`
/// (`.parameter` spans), and these passes leave those alone.
extension Shrinker {
    /// How many of the first steps the deleted ones are chosen from, and at most how many go.
    static let configStepWindow = 6
    static let configStepDeletions = 3

    /// For each small choice of the case's configuration (the first `.config` span; bound at most 7)
    /// and each other value it can take, lower or higher: the candidate with that value and without
    /// one, two or three of the first six steps (fewest first, earliest first). The later steps
    /// stay as they were. Accepted only when simpler, so a higher value always comes with deletions.
    func changeConfigDeletingSteps() -> Bool {
        guard let (config, steps) = configAndSteps() else { return false }
        let window = Swift.min(steps.count, Self.configStepWindow)
        let subsets = Self.subsets(of: window, upTo: Swift.min(Self.configStepDeletions, steps.count - 1))
        let parameters = parameterPositions(in: config)
        for p in config.range where p < bounds.count && bounds[p] > 0 && bounds[p] <= 7 && !parameters.contains(p) && !outOfBudget {
            for value in 0...bounds[p] where value != raw[p] && !outOfBudget {
                for deleted in subsets where !outOfBudget {
                    var candidate = raw
                    candidate[p] = value
                    for d in deleted.reversed() { candidate.removeSubrange(steps[d].range) }
                    if consider(candidate) { return true }
                }
            }
        }
        return false
    }

    /// For each small choice of the configuration and each *higher* value (a richer start), the candidate
    /// with that value, without one of the first six steps, and with one later argument choice re-pointed
    /// (`considerDeletingStep`: bound at most 3, or 0 raised to 1; not a step's continue flag nor its action). A
    /// richer start adds things before those the steps made, and a deleted step removes one, so a later choice
    /// that drew one of them by its index among the present ones now names another: re-pointing it is what the
    /// plain deletion (`changeConfigDeletingSteps`) lacks. Lower starts are that pass's to try; the same start
    /// with a step deleted and a choice re-pointed is `deleteStepRepointing`'s.
    func changeConfigDeletingStepRepointing() -> Bool {
        guard let (config, steps) = configAndSteps(), steps.count > 1 else { return false }
        let window = Swift.min(steps.count - 1, Self.configStepWindow)
        let argument = argumentPositions()
        let parameters = parameterPositions(in: config)
        for p in config.range where p < bounds.count && raw[p] < bounds[p] && bounds[p] <= 7 && !parameters.contains(p) && !outOfBudget {
            for value in (raw[p] + 1)...bounds[p] where !outOfBudget {
                var start = raw
                start[p] = value
                for d in 0..<window where !outOfBudget {
                    if considerDeletingStep(d, of: steps, from: start, repointing: argument) { return true }
                }
            }
        }
        return false
    }

    /// The positions of the parameters the configuration declares, which these passes leave alone.
    private func parameterPositions(in config: Span) -> [Int] {
        declaredParameters(in: config).flatMap { Array($0.range) }
    }

    /// The parameters the configuration declares (`Arguments.parameters`: `.parameter` spans inside it), in order.
    private func declaredParameters(in config: Span) -> [Span] {
        spans.filter { $0.label == .parameter && $0.start >= config.start && $0.end <= config.end }
    }

    /// The case's configuration span (the first `.config` span) and its steps, when the steps come after
    /// it, each right after the one before, all within the choices drawn; nil otherwise (nothing for the
    /// configuration passes to do).
    private func configAndSteps() -> (config: Span, steps: [Span])? {
        guard let config = spans.first(where: { $0.label == .config }), config.end <= raw.count else { return nil }
        let steps = stepSpans()
        guard let first = steps.first, first.start >= config.end, steps.last!.end <= raw.count,
              zip(steps, steps.dropFirst()).allSatisfy({ $0.end == $1.start }) else { return nil }
        return (config, steps)
    }

    /// The subsets of `0..<n` with 1 to `limit` elements, fewest first, then in lexicographic order.
    static func subsets(of n: Int, upTo limit: Int) -> [[Int]] {
        guard limit > 0 else { return [] }
        var result: [[Int]] = []
        var layer: [[Int]] = [[]]
        for _ in 1...limit {
            layer = layer.flatMap { subset in ((subset.last.map { $0 + 1 } ?? 0)..<n).map { subset + [$0] } }
            result += layer
        }
        return result
    }
}

extension Shrinker {
    /// Each parameter the configuration declares (`Arguments.parameters`: how the case runs, a backend or a file
    /// system) set to zero alone, once each, before the other passes: a failure that does not need its
    /// value goes on shrinking where each candidate runs cheapest and reads simplest (in memory rather than in an
    /// SQLite file). `minimise-choices` lowers it too, but after the deletions, whose candidates would all run where
    /// the failing case was drawn.
    func lowerParameters() -> Bool {
        // The configuration: a `.config` span, or one drawn as parameters as a whole (`.parameters`).
        guard let config = spans.first(where: { $0.label == .config || $0.label == .parameters }), config.end <= raw.count
        else { return false }
        var progress = false
        // The k-th declared parameter keeps its number when the configuration's other choices shrink around it.
        let declared = declaredParameters(in: config)
        for k in declared.indices.reversed() where !parametersTried.contains(k) && !outOfBudget {
            var candidate = raw
            for p in declared[k].range { candidate[p] = 0 }
            guard candidate != raw else { continue }
            if consider(candidate) {
                progress = true
            } else {
                parametersTried.append(k)
            }
        }
        return progress
    }
}

extension ShrinkPass {
    /// Sets each parameter the configuration declares to zero alone, once each.
    package static let lowerParameters = ShrinkPass("lower-parameters", .cheap) { $0.lowerParameters() }

    /// Changes a small configuration choice (to any value) together with the deletion of up to three
    /// of the first steps: a richer start replacing the steps that built it.
    package static let changeConfigDeletingSteps = ShrinkPass("change-config-delete-steps", .expensive) { $0.changeConfigDeletingSteps() }
    /// Raises a small configuration choice (a richer start) together with the deletion of one of the first
    /// steps and a change of one later small choice: a reference that the new start and the deletion shifted.
    package static let changeConfigDeletingStepRepointing = ShrinkPass("change-config-delete-step-repoint", .expensive) {
        $0.changeConfigDeletingStepRepointing()
    }
}
