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
/// was opened. `.abandon` stops the storage as a killed process would (the open transaction is lost, the container
/// is closed); `.perform` runs an action instead (the crasher executable sends itself SIGKILL there).
package struct WriteInterruption: Sendable {
    package enum Action: Sendable {
        case abandon
        case perform(@Sendable () -> Void)
    }

    /// Operations that complete before the interruption.
    package var afterOperations: Int
    package var action: Action

    package init(afterOperations: Int, action: Action = .abandon) {
        self.afterOperations = afterOperations
        self.action = action
    }
}
