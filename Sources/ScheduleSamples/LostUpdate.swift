import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reentrant counter writes through: a second actor, so awaiting it suspends the counter.
public actor Ledger {
    public private(set) var entries: [Int] = []

    public init() {}

    public func write(_ value: Int) { entries.append(value) }
}

/// The classic actor-reentrancy mistake: read, suspend on another actor, write back what was read. Two
/// increments that overlap across the `await` lose one of them.
public actor ReentrantCounter {
    public private(set) var value = 0
    /// `A read 0 on thread …`, `A wrote 1`, in the order they happened.
    public private(set) var events: [String] = []
    public let ledger = Ledger()

    public init() {}

    public func increment(_ who: String) async {
        let read = value
        events.append("\(who) read \(read) on thread \(currentThreadID())")
        await ledger.write(read + 1)
        value = read + 1
        events.append("\(who) wrote \(read + 1)")
    }
}

/// The lost update as a case: branch A increments; branch B first writes `headStart` entries of its own to
/// the ledger, then increments. With a head start of 1 or more, FIFO lets A finish before B reads, so only
/// an interleaving that moves B's read into A's suspension shows the bug.
public enum LostUpdate {
    /// One scheduled run of the case and what the counter ended with.
    public struct Outcome: Sendable {
        public let run: ScheduledRun<Void>
        public let value: Int
        public let events: [String]

        /// One increment was lost.
        public var isLost: Bool { value != 2 }
    }

    public static func branches(_ counter: ReentrantCounter, headStart: Int) -> [ScheduledBranch<Void>] {
        [
            ScheduledBranch("A") { await counter.increment("A") },
            ScheduledBranch("B") {
                for entry in 0..<headStart { await counter.ledger.write(-1 - entry) }
                await counter.increment("B")
            },
        ]
    }

    /// Runs the case under a scheduler drawing from `draw`.
    public static func run(_ draw: Draw, strategy: ScheduleStrategy = .randomWalk, headStart: Int = 1) -> Outcome {
        let counter = ReentrantCounter()
        let run = Scheduler(draw: draw, options: .init(strategy: strategy)).runConcurrently(branches(counter, headStart: headStart)).run
        let (value, events) = Scheduler(draw: Draw(replaying: ChoiceSequence([]))).run {
            (await counter.value, await counter.events)
        }.value!
        return Outcome(run: run, value: value, events: events)
    }

    /// The same two branches as ordinary child tasks on the process's executors (real threads); returns
    /// whether an increment was lost.
    public static func runOnRealThreads(headStart: Int = 1) async -> Bool {
        let counter = ReentrantCounter()
        await withTaskGroup(of: Void.self) { group in
            for branch in branches(counter, headStart: headStart) { group.addTask(operation: branch.body) }
        }
        return await counter.value != 2
    }
}

/// The calling thread's ID.
public func currentThreadID() -> UInt64 {
    #if canImport(Glibc)
    return UInt64(pthread_self())
    #else
    var id: UInt64 = 0
    pthread_threadid_np(nil, &id)
    return id
    #endif
}
