/// Runs cases in this process: a machine's (chunks share one scratch, coverage counted) or a test function's
/// (properties, shrinking tests). Which draw case `i` starts from is its `CaseOrder`.
package final class LocalExecutor: CaseExecutor {
    /// What runs a case.
    package enum Subject {
        /// A machine, with at most `maxSteps` steps per case.
        case machine(AnyMachine, maxSteps: Int)
        /// A test function of the draw.
        case test((Draw) -> Outcome)
    }

    package let subject: Subject
    package let order: CaseOrder

    package init(_ subject: Subject, order: CaseOrder = .seeded) {
        self.subject = subject
        self.order = order
    }

    /// A machine's cases in the search's order.
    package convenience init(machine: AnyMachine, maxSteps: Int) {
        self.init(.machine(machine, maxSteps: maxSteps))
    }

    /// A test function's cases in `order`.
    package convenience init(order: CaseOrder = .seeded, test: @escaping (Draw) -> Outcome) {
        self.init(.test(test), order: order)
    }

    private func outcome(_ draw: Draw) -> (outcome: Outcome, steps: Int) {
        switch subject {
        case .machine(let machine, let maxSteps): return machine.run(draw, maxSteps)
        case .test(let test): return (test(draw), 0)
        }
    }

    package func run(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool) -> ChunkReport {
        if case .machine(let machine, let maxSteps) = subject, order.isSeeded {
            return machine.runChunk(chunk, seed, maxSteps, stopAtFirstFailure) { _, _ in }
        }
        return ChunkReport.collect(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure) { index in
            let (outcome, steps) = run(case: index, seed: seed, keepingDraw: false)
            return (outcome.outcome, steps, nil)
        }
    }

    package func run(case index: Int, seed: UInt64) -> (outcome: Outcome, draw: Draw) {
        run(case: index, seed: seed, keepingDraw: true).0
    }

    private func run(case index: Int, seed: UInt64, keepingDraw: Bool) -> ((outcome: Outcome, draw: Draw), Int) {
        let draw = order.draw(case: index, seed: seed, simplest: { self.simplestLength() })
        let (outcome, steps) = self.outcome(draw)
        order.ran(case: index, draw)
        return ((outcome, draw), steps)
    }

    package func replay(_ sequence: ChoiceSequence) -> (outcome: Outcome, draw: Draw) {
        let draw = Draw(replaying: sequence)
        return (outcome(draw).outcome, draw)
    }

    package func record(_ sequence: ChoiceSequence) -> CaseRecord? {
        guard case .machine(let machine, let maxSteps) = subject else { return nil }
        return machine.record(sequence, maxSteps)
    }

    package func steps(_ sequence: ChoiceSequence) -> Int { outcome(Draw(replaying: sequence)).steps }

    /// The choices the simplest case (every choice 0) takes, at least 1.
    private func simplestLength() -> Int {
        let draw = Draw(replaying: ChoiceSequence([]))
        _ = outcome(draw)
        return Swift.max(1, draw.choices.count)
    }
}

/// Which draw case `i` of a run starts from.
package final class CaseOrder {
    /// Cases of the small phase (the simplest value and the ramp); 0 for the search's order.
    let smallCases: Int
    /// Choices the simplest case took, once known (at least 1).
    private var simplestLength: Int?

    private init(smallCases: Int) { self.smallCases = smallCases }

    /// Case `i` generated from `SplitMix64.caseSeed(run: seed, case: i)` alone: the search's order, where
    /// which worker or chunk runs a case never changes what it does.
    package static var seeded: CaseOrder { CaseOrder(smallCases: 0) }

    /// Small cases first, so that the first failure found is usually a small one and its shrink short
    /// (Hypothesis' engine does the same: its zero example first, then, for the first
    /// `min(max_examples / 10, 50)` examples, cases not much larger than the smallest one):
    /// - case 0 is the simplest value: every choice 0;
    /// - cases 1 ..< `smallCases` are random, with a size ramp (QuickCheck's): case `i` stops drawing fresh
    ///   values after `(i + 1)` times as many choices as the simplest value took (later draws read 0, the
    ///   simplest continuation: lists end, numbers are 0);
    /// - later cases are the search's usual ones.
    ///
    /// Properties (`Property.counterexample`) search this way; a state machine's cases never do.
    package static func smallFirst(runs: Int) -> CaseOrder { CaseOrder(smallCases: Swift.min(runs / 10, 50)) }

    var isSeeded: Bool { smallCases == 0 }

    /// The draw case `index` of the run `seed` reads from; `simplest` runs the simplest case when its length
    /// is needed and not known yet.
    func draw(case index: Int, seed: UInt64, simplest: () -> Int) -> Draw {
        if index == 0 && smallCases > 0 { return Draw(replaying: ChoiceSequence([])) }
        let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
        guard index < smallCases else { return Draw(seed: caseSeed) }
        if simplestLength == nil { simplestLength = simplest() }
        return Draw(seed: caseSeed, maxChoices: (index + 1) * simplestLength!)
    }

    /// Learns the simplest case's length from case 0 when it ran.
    func ran(case index: Int, _ draw: Draw) {
        if index == 0 && smallCases > 0 && simplestLength == nil { simplestLength = Swift.max(1, draw.choices.count) }
    }
}
