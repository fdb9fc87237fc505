import GraphFuzzEngine

/// Two accounts behind one actor and a transfer between them that awaits an audit: the money must always be in
/// one account or the other.
public actor Savings {
    /// Where the transfer puts the await that a cancellation can interrupt.
    public enum Design: Sendable {
        /// Debit, await the audit, credit: cancelled at the await, the audit throws and the debit stays, the
        /// credit never comes. The bug.
        case halfUpdated
        /// Everything that can throw first, then both writes with no await between them.
        case auditFirst
    }

    public let design: Design
    public private(set) var checking = 100
    public private(set) var savings = 0

    public init(_ design: Design) {
        self.design = design
    }

    /// The money in both accounts.
    public var total: Int { checking + savings }

    /// Moves `amount` from checking to savings; throws `CancellationError` when cancelled during the audit.
    public func moveToSavings(_ amount: Int) async throws {
        switch design {
        case .halfUpdated:
            checking -= amount
            try await audit(amount)                          // cancelled here: the debit stays
            savings += amount
        case .auditFirst:
            try await audit(amount)
            checking -= amount
            savings += amount
        }
    }

    /// The bank's audit call: a pause on the case's clock, which a cancellation ends with `CancellationError`.
    private func audit(_ amount: Int) async throws {
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Two transfers, each of which may be cancelled at one of its suspension points.
public enum CancelledTransfer {
    public static func branches(_ savings: Savings) -> [ScheduledBranch<Bool>] {
        [30, 20].enumerated().map { index, amount in
            ScheduledBranch(index == 0 ? "A" : "B", cancellable: true) { (try? await savings.moveToSavings(amount)) != nil }
        }
    }

    /// One scheduled run: the run, each transfer's record (true when it completed) and the money left in both accounts.
    public static func run(_ draw: Draw, _ design: Savings.Design, options: Scheduler.Options = .init())
    -> (run: ScheduledRun<Void>, branches: [BranchRecord<Bool>], total: Int) {
        let savings = Savings(design)
        let (run, branches) = Scheduler(draw: draw, options: options).runConcurrently(branches(savings))
        let total = Scheduler(draw: Draw(replaying: ChoiceSequence([]))).run { await savings.total }.value ?? -1
        return (run, branches, total)
    }
}
