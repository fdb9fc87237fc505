import Foundation
import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Small concurrent programs for the scheduler's tests, written as ordinary Swift concurrency code.

/// Where a reentrant counter writes through (a second actor: awaiting it suspends the counter).
actor Ledger {
    private(set) var entries: [Int] = []
    func write(_ value: Int) { entries.append(value) }
}

/// The classic actor-reentrancy lost update: read, suspend on another actor, write back what was read.
actor ReentrantCounter {
    private(set) var value = 0
    private(set) var events: [String] = []
    let ledger = Ledger()

    func increment(_ who: String) async {
        let read = value
        events.append("\(who) read \(read) on thread \(currentThreadID())")
        await ledger.write(read + 1)
        value = read + 1
        events.append("\(who) wrote \(read + 1)")
    }
}

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

/// The calling thread's ID.
func currentThreadID() -> UInt64 {
    #if canImport(Glibc)
    return UInt64(pthread_self())
    #else
    var id: UInt64 = 0
    pthread_threadid_np(nil, &id)
    return id
    #endif
}
