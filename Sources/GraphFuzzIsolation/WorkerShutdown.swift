#if !GRAPHFUZZ_NO_PROCESSES
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a worker ends when it is told to stop (SIGTERM: its parent stops it politely, or it was orphaned):
/// between two cases it removes its scratch folder and dies of SIGTERM, so to a parent it looks as before,
/// killed by a signal, never a case's failure. A case that runs on past `grace` seconds is not waited for:
/// a watcher thread removes the folder and ends the process. The parent removes whatever a worker it had
/// to kill left in the folder.
struct WorkerShutdown {
    /// The folder the worker's cases keep their files in, nil when it was given none.
    let scratchFolder: String?
    /// Seconds a case may run on after the stop before the watcher ends the process.
    static let grace = 0.5

    /// Ends the worker if it was told to stop; call between cases.
    func endIfRequested() {
        if Interruption.signal != nil { end() }
    }

    /// Removes the scratch folder, and ends the worker as killed by SIGTERM.
    func end() -> Never {
        removeScratchFolder()
        signal(SIGTERM, SIG_DFL)
        kill(getpid(), SIGTERM)
        // Delivered to another thread when called from the watcher: give it a moment.
        WatcherThread.sleep(seconds: 1)
        _exit(128 + SIGTERM)
    }

    /// Removes the scratch folder (the worker's input ended: its work is done). A case still running on another
    /// thread may write a file into it while it is being removed (SQLite's journal beside a store), which makes the
    /// removal fail: it is tried again until the folder is gone (a file cannot be made in a folder that is gone),
    /// for at most a second.
    func removeScratchFolder() {
        guard let scratchFolder else { return }
        for _ in 0..<100 {
            try? FileManager.default.removeItem(atPath: scratchFolder)
            if !FileManager.default.fileExists(atPath: scratchFolder) { return }
            usleep(10_000)
        }
    }

    /// Starts the watcher thread: a worker whose parent is gone stops as if told to (its parent can no
    /// longer remove its folder), and a stop the cases do not reach within `grace` ends the process.
    func watch() {
        let parent = getppid()
        WatcherThread.start {
            // SIGTERM goes to the thread running the cases, so a blocking read there returns at once.
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            let clock = ContinuousClock()
            var stopSince: ContinuousClock.Instant?
            while true {
                if getppid() != parent { Interruption.stopOnce() }
                if Interruption.signal != nil {
                    let since = stopSince ?? clock.now
                    stopSince = since
                    if (clock.now - since) >= .milliseconds(Int64(WorkerShutdown.grace * 1000)) { end() }
                }
                WatcherThread.sleep(seconds: 0.05)
            }
        }
    }
}
#endif
