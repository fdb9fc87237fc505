import GraphFuzzEngine

/// A document that applies revisions as they arrive: they must be applied in the order they arrived.
public actor Document {
    public private(set) var applied: [Int] = []

    public init() {}

    public func apply(_ revision: Int) {
        applied.append(revision)
    }
}

/// Receives revisions from a connection and hands each to the document.
public final class RevisionReceiver: Sendable {
    /// How a revision reaches the document.
    public enum Design: Sendable {
        /// A fire-and-forget `Task {}` per revision, assuming tasks run in the order they were made. The bug:
        /// nothing orders unstructured tasks.
        case fireAndForget
        /// Each revision's task first awaits the previous one's.
        case chained
    }

    public let design: Design
    public let document = Document()
    private let last = LastTask()

    public init(_ design: Design) {
        self.design = design
    }

    /// Hands `revision` to the document; the returned task finishes when it is applied.
    public func receive(_ revision: Int) async -> Task<Void, Never> {
        let document = document
        switch design {
        case .fireAndForget:
            return Task { await document.apply(revision) }
        case .chained:
            return await last.chain { previous in
                Task {
                    await previous?.value
                    await document.apply(revision)
                }
            }
        }
    }
}

/// The last task handed out, so the next can await it.
private actor LastTask {
    private var task: Task<Void, Never>?

    func chain(_ make: (Task<Void, Never>?) -> Task<Void, Never>) -> Task<Void, Never> {
        let next = make(task)
        task = next
        return next
    }
}

/// The connection's side: between revisions it awaits the network (an actor).
actor Connection {
    private(set) var reads = 0

    func read() {
        reads += 1
    }
}

/// Three revisions received one after another, then waited for.
public enum UpdateOrder {
    public static func branches(_ receiver: RevisionReceiver) -> [ScheduledBranch<[Int]>] {
        let connection = Connection()
        return [ScheduledBranch("A") {
            var tasks: [Task<Void, Never>] = []
            for revision in 1...3 {
                await connection.read()
                tasks.append(await receiver.receive(revision))
            }
            for task in tasks { await task.value }
            return await receiver.document.applied
        }]
    }

    /// One scheduled run: the run and the revisions in the order they were applied.
    public static func run(_ draw: Draw, _ design: RevisionReceiver.Design, options: Scheduler.Options = .init())
    -> (run: ScheduledRun<Void>, applied: [Int]) {
        let (run, branches) = Scheduler(draw: draw, options: options).runConcurrently(branches(RevisionReceiver(design)))
        return (run, branches[0].result ?? [])
    }
}
