#if !GRAPHFUZZ_NO_PROCESSES && os(Linux)
import GraphFuzzEngine
import Glibc
import Synchronization

/// A worker started as a fork of this process (`WorkerLaunch.entry`): the child is the worker the executable would
/// be when started with the worker's arguments, without linking its libraries and starting its runtime again.
///
/// Only a process whose other threads are quiet forks (a child has only the thread that forked; a lock another thread
/// held would stay held in it): the command line runs one thread, and at most `ParentWatch`'s beside it. The child is
/// then made what `posix_spawn` of the executable would make: its standard input, output and error are the worker's
/// socket, pipe and error file and no other descriptor of the parent stays open (a parent's end of another worker's
/// pipe would keep that worker's output from ever ending), the signals this process handles are back to their default
/// action (an exec resets them; ignored ones stay ignored, as across an exec), and the launch's variables are set, with
/// `SWIFT_BACKTRACE=enable=no`'s effect: no crash handler, so a trap ends the worker at once with its message on
/// standard error.
enum WorkerFork {
    /// Threads started to wait in a loop that takes no lock and allocates nothing (`ParentWatch`'s): a fork while
    /// they run is whole. Process-wide, as threads are.
    static let quietThreads = Atomic<Int>(0)

    /// Whether every thread of this process but the calling one is quiet (`/proc/self/task` holds one entry more
    /// than `quietThreads` counts).
    static func onlyQuietThreads() -> Bool {
        guard let directory = opendir("/proc/self/task") else { return false }
        defer { closedir(directory) }
        var threads = 0
        while let entry = readdir(directory) {
            let dot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !dot { threads += 1 }
        }
        return threads == 1 + quietThreads.load(ordering: .relaxed)
    }

    /// Forks the worker: in the child, `entry(arguments)` runs with `input`, `output` and `error` as its standard
    /// descriptors and `environment` set, and its result is the child's exit code. In this process: 0 and the
    /// child's `pid`, or the `errno` of a failed fork.
    static func start(_ pid: inout pid_t, entry: @Sendable ([String]) -> Int32, arguments: [String],
                      environment: [String: String], input: Int32, output: Int32, error: Int32) -> Int32 {
        // Output buffered in this process must not be written a second time by the child.
        fflush(nil)
        let child = fork()
        if child < 0 { return errno }
        if child > 0 {
            pid = child
            return 0
        }
        // The child, from here on: it never returns to the parent's code.
        dup2(input, STDIN_FILENO)
        dup2(output, STDOUT_FILENO)
        dup2(error, STDERR_FILENO)
        closeDescriptors(from: 3)
        resetHandledSignals()
        // A stop this process was told of is this process's: the worker starts as a started one does, told nothing.
        Interruption.forget()
        // The child runs this thread alone: the quiet threads counted here are its parent's.
        quietThreads.store(0, ordering: .relaxed)
        for name in environment.keys.sorted() { setenv(name, environment[name]!, 1) }
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        PhaseLog.note("forked")
        let code = entry(arguments)
        fflush(nil)
        _exit(code)
    }

    /// Closes every open descriptor from `first` on (listed in `/proc/self/fd` first, then closed).
    private static func closeDescriptors(from first: Int32) {
        var open: [Int32] = []
        if let directory = opendir("/proc/self/fd") {
            let own = dirfd(directory)
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if let fd = Int32(name), fd >= first, fd != own { open.append(fd) }
            }
            closedir(directory)
        }
        for fd in open { close(fd) }
    }

    /// Puts every signal this process handles back to its default action, as an exec does.
    private static func resetHandledSignals() {
        for signal in 1..<Int32(65) where signal != SIGKILL && signal != SIGSTOP {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0 else { continue }
            let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            if handler == unsafeBitCast(SIG_IGN, to: Int.self) || handler == unsafeBitCast(SIG_DFL, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}
#endif
