import GraphFuzzEngine

/// A sample concurrency bug, for the scheduler's tests and its benchmark (`schedule-bench table`): one case of it
/// run under a scheduler, and whether the bug showed. FIFO (all-zero choices) never shows any of them.
public struct SampleBug: Sendable {
    /// The sample and the design that has the bug.
    public let name: String
    /// What kind of concurrency bug it is.
    public let shape: String
    /// Runs one case with the given options (the strategy under test) and says whether the bug showed.
    public let shows: @Sendable (Draw, Scheduler.Options) -> Bool
    /// The same case with the bug fixed: never shows.
    public let fixedShows: @Sendable (Draw, Scheduler.Options) -> Bool

    public static let all: [SampleBug] = [
        SampleBug(name: "ReentrantCounter, head start 3", shape: "lost update",
                  shows: { LostUpdate.run($0, strategy: $1.strategy, headStart: 3).isLost },
                  fixedShows: { _, _ in false }),
        SampleBug(name: "ReentrantCounter, head start 6", shape: "lost update",
                  shows: { LostUpdate.run($0, strategy: $1.strategy, headStart: 6).isLost },
                  fixedShows: { _, _ in false }),
        SampleBug(name: "ThumbnailCache.checkThenAct, head start 1", shape: "check-then-act",
                  shows: { DuplicateDownload.run($0, .checkThenAct, options: $1, headStart: 1).downloads > 1 },
                  fixedShows: { DuplicateDownload.run($0, .inFlightTask, options: $1, headStart: 1).downloads > 1 }),
        SampleBug(name: "RevisionReceiver.fireAndForget", shape: "ordering",
                  shows: { UpdateOrder.run($0, .fireAndForget, options: $1).applied != [1, 2, 3] },
                  fixedShows: { UpdateOrder.run($0, .chained, options: $1).applied != [1, 2, 3] }),
        SampleBug(name: "Savings.halfUpdated", shape: "cancellation",
                  shows: { CancelledTransfer.run($0, .halfUpdated, options: $1).total != 100 },
                  fixedShows: { CancelledTransfer.run($0, .auditFirst, options: $1).total != 100 }),
    ]
}
