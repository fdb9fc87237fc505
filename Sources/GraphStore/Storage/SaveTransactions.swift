/// How a save's writes are grouped into transactions: one (production) or a faulty grouping from a real
/// mistake, for mutants. `package` access: the targets select one, an app cannot.
package enum SaveTransactions: String, Sendable, CaseIterable {
    /// The whole save is one transaction: a killed process leaves the store before or after it.
    case single
    /// Mutant: each deleted row, each written row (with its relationships) and the counters are committed
    /// one transaction at a time, so a killed save leaves part of the graph.
    case perRow
    /// Mutant: rows (deletions, attributes, counters) are committed first, relationships in a second
    /// transaction, so a killed save leaves rows without their relationships.
    case rowsThenRelationships
}

/// A point inside a save at which the process "dies": after a number of write operations since the container
/// was opened, or a number of operations before the last one of the next save's write plan. `.abandon` stops the
/// storage as a killed process would (the open transaction is lost, the container is closed); `.perform` runs an
/// action instead (the crasher executable sends itself SIGKILL there).
package struct WriteInterruption: Sendable {
    package enum Action: Sendable {
        case abandon
        case perform(@Sendable () -> Void)
    }

    /// Where the interruption comes.
    package enum Point: Sendable, Equatable {
        /// After this many operations since the container was opened.
        case afterOperations(Int)
        /// This many operations before the last operation of the next save's plan (its final commit under the
        /// shipped grouping), or before its first operation when the plan is shorter: the save never completes.
        case beforeEnd(Int)
    }

    package var point: Point
    package var action: Action

    package init(afterOperations: Int, action: Action = .abandon) {
        self.point = .afterOperations(afterOperations)
        self.action = action
    }

    /// An interruption `operations` operations before the end of the next save's write plan.
    package init(beforeEnd operations: Int, action: Action = .abandon) {
        self.point = .beforeEnd(operations)
        self.action = action
    }

    /// Operations since the container was opened that complete before the interruption, for a save whose plan
    /// starts after `done` operations and holds `planned`.
    func afterOperations(done: Int, planned: Int) -> Int {
        switch point {
        case .afterOperations(let count): return count
        case .beforeEnd(let back): return done + max(0, planned - 1 - back)
        }
    }
}
