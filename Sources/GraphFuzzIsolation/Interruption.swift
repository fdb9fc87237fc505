#if !GRAPHFUZZ_NO_PROCESSES
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM during a run: the first one is recorded (the search loop sees it, stops its
/// workers, prints the summary so far and exits 128 + the signal: 130 for SIGINT); a second one
/// ends the process at once.
package enum Interruption {
    /// The signal received, or 0. A process-wide flag is what a signal handler can set.
    private static let received = Atomic<Int32>(0)

    /// The signal received so far (SIGINT or SIGTERM), nil when none.
    package static var signal: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Whether `stopOnce` sent its signal.
    private static let stopSent = Atomic<Bool>(false)

    /// Sends this process SIGTERM unless it already received a stop signal or another thread sent it one: the
    /// watchers that notice an orphaned process may both ask, and a second SIGTERM would end it at once, before
    /// it removed its scratch files.
    package static func stopOnce() {
        guard signal == nil, !stopSent.exchange(true, ordering: .relaxed) else { return }
        kill(getpid(), SIGTERM)
    }

    /// Forgets the signal received and the stop sent: for a child forked from this process (`WorkerFork`), which
    /// starts as a started process would, told nothing.
    static func forget() {
        received.store(0, ordering: .relaxed)
        stopSent.store(false, ordering: .relaxed)
    }

    /// The exit code for an interrupted run: 128 + the signal.
    package static var exitCode: Int32 { 128 + (signal ?? SIGINT) }

    /// Unblocks SIGINT and SIGTERM in the calling thread (and the threads it starts later): a
    /// parent may start `graph-fuzz` with them blocked (Foundation's `Process` from a test runner
    /// does), and a blocked signal would never stop the run. Call first, on the main thread.
    package static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Installs the handlers (idempotent), except for a signal the process was started ignoring.
    package static func install() {
        _ = received.load(ordering: .relaxed)
        for signal in [SIGINT, SIGTERM] {
            // A signal ignored on start stays ignored (a background job of a script, nohup).
            var current = sigaction()
            sigaction(signal, nil, &current)
            #if canImport(Glibc)
            let ignored = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            #else
            let ignored = unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            #endif
            if ignored { continue }
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                if Interruption.received.exchange(number, ordering: .relaxed) != 0 { _exit(128 + number) }
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                if Interruption.received.exchange(number, ordering: .relaxed) != 0 { _exit(128 + number) }
            }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocking poll returns at once with EINTR
            sigaction(signal, &action, nil)
        }
    }
}

/// Ends this process when its parent goes away: `graph-fuzz` started by `swift test` (which
/// sets `GRAPH_FUZZ_EXIT_WITH_PARENT=1`) must not outlive it, and a worker must not outlive its
/// `graph-fuzz` even when it is stuck in a hang and never reads its closed input.
package enum ParentWatch {
    /// Checks the parent every `interval` seconds on a background thread; when it changed, calls
    /// `orphaned` (on that thread).
    ///
    /// The thread (`WatcherThread`) only asks for its parent and sleeps until then, holding no lock and allocating
    /// nothing: a fork of this process meanwhile is whole (`WorkerFork`), so it counts as quiet.
    package static func start(interval: Double = 0.2, orphaned: @escaping @Sendable () -> Void) {
        let parent = getppid()
        WatcherThread.start {
            while getppid() == parent { WatcherThread.sleep(seconds: interval) }
            orphaned()
        }
        #if os(Linux)
        // Counted once it runs: until then a fork sees one thread more than it counts and starts its worker anew.
        WorkerFork.quietThreads.add(1, ordering: .relaxed)
        #endif
    }
}
#endif
