extension MachineRunner {
    /// Chooses actions like Hypothesis' `sampled_from(rules).filter(valid)`: an action index is drawn by
    /// weight over all enabled actions (so a recorded choice keeps naming the same action when shrinking
    /// removes earlier steps); if its precondition fails, up to two more draws; then a draw among the enabled
    /// actions whose precondition holds, and if none, among all whose precondition holds. Checks are counted.
    ///
    /// Each step (`begin`) evaluates the model-dependent weights once, and each precondition at most once
    /// (remembered in a mask reused across steps), however often the draws and the fallback ask for them;
    /// every ask is still counted, so coverage counts what it counted before.
    @usableFromInline
    struct Chooser {
        @usableFromInline let actions: [Action<M>]
        /// The actions this case may use (`start`).
        @usableFromInline var enabled: [Bool] = []
        /// Per action: precondition checks that held, and that failed (added up over the cases it chooses for).
        @usableFromInline var held: [Int]
        @usableFromInline var failed: [Int]
        @usableFromInline var candidates: [Int] = []
        @usableFromInline var weights: [UInt32] = []
        /// This step's weights of the enabled actions (0 for disabled ones): the fixed ones set once per case,
        /// the model-dependent ones (`modelWeighted`, enabled only) set by `begin`.
        @usableFromInline var stepWeights: [UInt32] = []
        @usableFromInline var modelWeighted: [Int]
        /// The precondition results per action, stamped with the step they were evaluated in: `stamp << 1`
        /// when it fails, `stamp << 1 | 1` when it holds (any other value: not evaluated in this step), so a
        /// new step (`begin`) forgets them all without a write per action.
        @usableFromInline var known: [UInt64]
        /// The current step's stamp (1, 2, …; 0 is never a step's).
        @usableFromInline var stamp: UInt64 = 0
        /// Whether precondition checks are counted (for coverage).
        @usableFromInline let counts: Bool

        /// A chooser for one case or, reused, for every case of a chunk (its buffers keep their storage).
        @inlinable
        init(actions: [Action<M>], counts: Bool) {
            self.actions = actions
            self.counts = counts
            held = counts ? Array(repeating: 0, count: actions.count) : []
            failed = held
            known = Array(repeating: 0, count: actions.count)
            modelWeighted = []
            stepWeights.reserveCapacity(actions.count)
            weights.reserveCapacity(actions.count)
        }

        /// Starts a case that may use the `enabled` actions.
        @inlinable
        mutating func start(enabled: [Bool], plan: Plan) {
            self.enabled = enabled
            // Element-wise, so `stepWeights` keeps its own storage (a shared one would be copied on the first
            // write of every case).
            stepWeights.removeAll(keepingCapacity: true)
            if enabled == plan.allEnabled {
                stepWeights.append(contentsOf: plan.fixedWeights)
                modelWeighted = plan.modelWeighted
            } else {
                for a in actions.indices { stepWeights.append(enabled[a] ? actions[a].fixedWeight ?? 0 : 0) }
                modelWeighted = plan.modelWeighted.filter { enabled[$0] }
            }
        }

        /// Starts a step in `model`: its model-dependent weights, no precondition evaluated yet.
        @inlinable
        mutating func begin(_ model: M.Model) {
            for a in modelWeighted { stepWeights[a] = actions[a].weight(model) }
            stamp += 1
        }

        /// Whether action `a`'s precondition holds in this step's model, evaluated once per step.
        @inlinable
        mutating func applicable(_ a: Int, _ model: M.Model) -> Bool {
            if known[a] >> 1 != stamp { known[a] = stamp << 1 | (actions[a].precondition(model) ? 1 : 0) }
            let holds = known[a] & 1 == 1
            if counts {
                if holds { held[a] += 1 } else { failed[a] += 1 }
            }
            return holds
        }

        @inlinable
        mutating func choose(_ model: M.Model, excluded: [Int], _ draw: Draw) -> Int? {
            // The draws use this step's weights as they are until one must be zeroed (an excluded action, a
            // failed precondition); only then are they copied into `weights`, element-wise so `weights` keeps
            // its own storage.
            var copied = !excluded.isEmpty
            if copied {
                weights.removeAll(keepingCapacity: true)
                weights.append(contentsOf: stepWeights)
                for a in excluded { weights[a] = 0 }
            }
            if (copied ? weights : stepWeights).contains(where: { $0 > 0 }) {
                for _ in 0..<3 {
                    let a = draw.chooseWeighted(copied ? weights : stepWeights)
                    if (copied ? weights[a] : stepWeights[a]) > 0, applicable(a, model) { return a }
                    if !copied {
                        weights.removeAll(keepingCapacity: true)
                        weights.append(contentsOf: stepWeights)
                        copied = true
                    }
                    weights[a] = 0
                    if !weights.contains(where: { $0 > 0 }) { break }
                }
            }
            collect(model, excluded: excluded, swarm: true)
            if candidates.isEmpty { collect(model, excluded: excluded, swarm: false) }
            guard !candidates.isEmpty else { return nil }
            return candidates[draw.chooseWeighted(weights)]
        }

        /// The applicable actions (enabled ones when `swarm`) in `candidates`, their weights in `weights`.
        @inlinable
        mutating func collect(_ model: M.Model, excluded: [Int], swarm: Bool) {
            candidates.removeAll(keepingCapacity: true)
            weights.removeAll(keepingCapacity: true)
            for a in actions.indices where (enabled[a] || !swarm) && !excluded.contains(a) {
                let weight = enabled[a] ? stepWeights[a] : actions[a].weight(model)
                guard weight > 0, applicable(a, model) else { continue }
                candidates.append(a)
                weights.append(weight)
            }
        }
    }
}
