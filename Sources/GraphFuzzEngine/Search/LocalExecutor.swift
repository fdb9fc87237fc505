/// Runs cases in this process, one chunk at a time: a machine's (chunks share one scratch, coverage counted) or a test
/// function's (properties, shrinking tests). Which draw case `i` starts from is its `CaseOrder`.
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
    /// A chunk ends at its first failing case (the search stops there).
    package let stopAtFirstFailure: Bool
    package let chunkSize: Int?
    private var queued: (chunk: CaseChunk, seed: UInt64)?

    /// `chunkSize`: cases per chunk (a time limit and a stop request are checked between chunks; default 256).
    package init(_ subject: Subject, order: CaseOrder = .seeded, stopAtFirstFailure: Bool = false, chunkSize: Int? = nil) {
        self.subject = subject
        self.order = order
        self.stopAtFirstFailure = stopAtFirstFailure
        self.chunkSize = chunkSize ?? 256
    }

    /// A machine's cases in the search's order.
    package convenience init(machine: AnyMachine, maxSteps: Int, stopAtFirstFailure: Bool = false, chunkSize: Int? = nil) {
        self.init(.machine(machine, maxSteps: maxSteps), stopAtFirstFailure: stopAtFirstFailure, chunkSize: chunkSize)
    }

    /// A test function's cases in `order`.
    package convenience init(order: CaseOrder = .seeded, stopAtFirstFailure: Bool = false, test: @escaping (Draw) -> Outcome) {
        self.init(.test(test), order: order, stopAtFirstFailure: stopAtFirstFailure)
    }

    // MARK: Chunks, one at a time: each collect runs the chunk submitted.

    package var workers: Int { 1 }
    package var wantsChunk: Bool { queued == nil }
    package var isIdle: Bool { queued == nil }
    package var lowestUnfinished: Int? { queued?.chunk.start }
    package func submit(_ chunk: CaseChunk, seed: UInt64) { queued = (chunk, seed) }
    package func stop() { queued = nil }

    package func collect(timeout: Double, dispatch: Bool) -> ChunkReport {
        guard let (chunk, seed) = queued else { return ChunkReport() }
        queued = nil
        return run(chunk, seed: seed)
    }

    /// Runs the chunk's cases of the run `seed` (to its first failing case with `stopAtFirstFailure`).
    package func run(_ chunk: CaseChunk, seed: UInt64) -> ChunkReport {
        if case .machine(let machine, let maxSteps) = subject, order.isSeeded {
            return machine.runChunk(chunk, seed, maxSteps, stopAtFirstFailure) { _, _ in }
        }
        return ChunkReport.collect(chunk, seed: seed, stopAtFirstFailure: stopAtFirstFailure) { index in
            let result = run(order.draw(case: index, seed: seed, simplest: { self.simplestLength() }), options: .search, index: index)
            return (result.outcome, result.steps, nil)
        }
    }

    // MARK: Single cases

    package func run(case index: Int, seed: UInt64) -> CaseResult {
        run(order.draw(case: index, seed: seed, simplest: { self.simplestLength() }), options: .search, index: index)
    }

    package func replay(_ sequence: ChoiceSequence) -> CaseResult {
        run(Draw(replaying: sequence), options: .candidate)
    }

    package func describe(_ sequence: ChoiceSequence) -> CaseResult {
        run(Draw(replaying: sequence), options: .record)
    }

    /// Runs one case from `draw` (case `index` of the run, when it is one).
    private func run(_ draw: Draw, options: RunOptions, index: Int? = nil) -> CaseResult {
        let result: CaseResult
        switch subject {
        case .machine(let machine, let maxSteps): result = machine.run(draw, maxSteps, options)
        case .test(let test): result = CaseResult(outcome: test(draw), consumed: draw.consumed)
        }
        if let index { order.ran(case: index, draw) }
        return result
    }

    /// The choices the simplest case (every choice 0) takes, at least 1.
    private func simplestLength() -> Int {
        Swift.max(1, run(Draw(replaying: ChoiceSequence([])), options: .search).consumed.choices.count)
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
