/// What one case did, whatever the machine: its outcome and steps, what it consumed (its choices, for shrinking),
/// what it exercised (coverage) and, when the run recorded, the case as readable records.
@usableFromInline package struct CaseResult: Sendable, Equatable {
    @usableFromInline package var outcome: Outcome
    /// Steps run, up to and including a failing one (for a case that crashed or hung, up to the step it died at).
    @usableFromInline package var steps: Int
    /// The choices the case consumed (empty when its draw kept no record).
    @usableFromInline package var consumed: Consumed
    /// What the case exercised (empty unless the run covered).
    @usableFromInline package var coverage: Coverage
    /// The case's records (nil unless the run recorded).
    @usableFromInline package var record: CaseRecord?
    /// Whether throughput benchmarks measure the case's configuration.
    @usableFromInline package var benchmarked: Bool

    @usableFromInline package init(outcome: Outcome, steps: Int = 0, consumed: Consumed = Consumed(), coverage: Coverage = Coverage(),
                 record: CaseRecord? = nil, benchmarked: Bool = true) {
        self.outcome = outcome
        self.steps = steps
        self.consumed = consumed
        self.coverage = coverage
        self.record = record
        self.benchmarked = benchmarked
    }

    @inlinable
    package init<M>(_ run: MachineRun<M>, _ runner: MachineRunner<M>, _ options: RunOptions, consumed: Consumed) {
        outcome = run.outcome
        steps = run.steps
        self.consumed = consumed
        coverage = run.coverage
        record = options.records ? runner.describe(run, exports: options.exports) : nil
        benchmarked = runner.isBenchmarked(run.config)
    }

    /// The failure, when the case failed.
    @usableFromInline package var failure: Failure? { outcome.failure }
}

/// A case of a target as readable records: the configuration, the steps, the failure if any.
@usableFromInline package struct CaseRecord: Sendable, Equatable {
    @usableFromInline package var config: TraceStep
    @usableFromInline package var steps: [TraceStep]
    /// What the specification predicted at each step, in the same order.
    @usableFromInline package var expectations: [String]
    @usableFromInline package var outcome: Outcome
    /// A Swift Testing test body reproducing the case against the production API (empty unless asked for).
    @usableFromInline package var swiftLines: [String]
    /// The configuration as the machine declares it (`ConfigDescribing`), printed under its trace; empty otherwise.
    @usableFromInline package var configLines: [String]

    @usableFromInline package init(config: TraceStep, steps: [TraceStep], expectations: [String], outcome: Outcome, swiftLines: [String],
                                   configLines: [String] = []) {
        self.config = config
        self.configLines = configLines
        self.steps = steps
        self.expectations = expectations
        self.outcome = outcome
        self.swiftLines = swiftLines
    }
}
