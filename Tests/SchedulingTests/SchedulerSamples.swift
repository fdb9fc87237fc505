import Foundation
import ScheduleSamples

// Small concurrent programs for the scheduler's tests, written as ordinary Swift concurrency code.

/// The same mistake on the main actor.
@MainActor
final class MainActorCounter {
    private(set) var value = 0
    private(set) var threads: [UInt64] = []
    let ledger = Ledger()

    func increment() async {
        MainActor.assertIsolated()
        threads.append(currentThreadID())
        let read = value
        await ledger.write(read + 1)
        value = read + 1
    }
}

/// A one-slot mailbox: `receive` waits on a continuation that `send` resumes, unless the value came first.
actor Mailbox {
    private var waiting: CheckedContinuation<Int, Never>?
    private var early: Int?
    private(set) var receiverWaited = false

    func receive() async -> Int {
        if let early { return early }
        receiverWaited = true
        return await withCheckedContinuation { waiting = $0 }
    }

    func send(_ value: Int) {
        if let waiting {
            waiting.resume(returning: value)
            self.waiting = nil
        } else {
            early = value
        }
    }
}

/// An append-only list of events shared by a case's tasks (behind a lock, though a scheduled case runs its
/// jobs one at a time on one thread).
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
