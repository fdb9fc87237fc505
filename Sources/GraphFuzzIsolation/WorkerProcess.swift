#if !GRAPHFUZZ_NO_PROCESSES
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a worker process ended.
enum WorkerTermination: Equatable {
    case exited(Int32)
    case signaled(Int32)

    /// "SIGILL", "SIGSEGV", … or "signal N"; "exit N" for an exit.
    var name: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signaled(let signal):
            let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
                                          SIGFPE: "SIGFPE", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM"]
            return names[signal] ?? "signal \(signal)"
        }
    }
}

/// One running worker process: a socket to its standard input, a pipe from its answer descriptor, its standard
/// error in a temporary file (read for the trap message when it dies), and a scratch folder of its own for the
/// files its cases make (`ScratchFolder`), made here and removed as soon as the worker is reaped, however it ended.
final class WorkerProcess {
    let pid: pid_t
    /// The folder this worker's cases keep their files in.
    let scratchFolder: String
    /// The read end of the worker's standard output (for `poll`).
    let output: Int32
    private let input: Int32
    /// The worker's standard error: a temporary file removed as soon as the worker has it open,
    /// so no file is left behind however the run ends; read through this descriptor.
    private let errorFile: Int32
    private var buffer: [UInt8] = []
    /// What one read takes from the worker's output, kept between reads (zeroing 64 KiB at every read cost the parent
    /// more than the read).
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var lineStart = 0
    private var reaped: WorkerTermination?

    /// Starts a worker as `launch` says, with a new scratch folder of its own and `SWIFT_BACKTRACE=enable=no`
    /// added to this process's environment.
    init(_ launch: WorkerLaunch) throws(WorkerError) {
        let scratchFolder: String
        do { scratchFolder = try ScratchFolder.make(for: "worker") } catch { throw WorkerError(.scratchFolder, error.message) }
        let executable = launch.executable
        // Requests go over a socket: writing to a worker that just died then fails (EPIPE) instead
        // of raising SIGPIPE, and this process keeps the usual SIGPIPE behaviour for its own output.
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, WorkerProcess.streamSocket, 0, &toChild) == 0 else {
            let code = errno
            ScratchFolder.remove(scratchFolder)
            throw WorkerError.system("cannot create a socket pair for a worker", code)
        }
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(toChild[1], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard pipe(&fromChild) == 0 else {
            let code = errno
            close(toChild[0]); close(toChild[1])
            ScratchFolder.remove(scratchFolder)
            throw WorkerError.system("cannot create a pipe for a worker", code)
        }
        // The parent's ends must not leak into later workers, or a dead worker's output never ends.
        for fd in [toChild[1], fromChild[0]] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #if os(Linux)
        // A larger pipe (1 MiB, the unprivileged maximum) holds ~50,000 case announcements, so a
        // worker running tiny cases never waits for the parent to read them.
        _ = fcntl(fromChild[0], 1031 /* F_SETPIPE_SZ */, 1 << 20)
        #endif
        let path = ScratchFolder.temporaryDirectory + "graph-fuzz-worker-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).stderr"
        let errorFile = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        guard errorFile >= 0 else {
            let code = errno
            for fd in toChild + fromChild { close(fd) }
            ScratchFolder.remove(scratchFolder)
            throw WorkerError.system("cannot create \(path)", code)
        }

        var pid: pid_t = 0
        let status: Int32
        #if os(Linux)
        let forks = launch.entry != nil && launch.answers == STDOUT_FILENO && WorkerFork.onlyQuietThreads()
        #else
        let forks = false
        #endif
        if forks, let entry = launch.entry {
            status = WorkerFork.start(&pid, entry: entry, arguments: launch.arguments(scratchFolder),
                                      environment: launch.environment(scratchFolder), input: toChild[0], output: fromChild[1],
                                      error: errorFile)
        } else {
            #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            #else
            var actions: posix_spawn_file_actions_t?
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // In ascending order of the child's descriptors: a source that is one of them (3, say) is copied before
            // that number is replaced.
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            if launch.answers == STDOUT_FILENO {
                posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
            if launch.answers != STDOUT_FILENO { posix_spawn_file_actions_adddup2(&actions, fromChild[1], launch.answers) }
            for fd in Set([toChild[0], fromChild[1], errorFile]).subtracting([0, 1, 2, launch.answers]).sorted() {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
            var environment = ProcessInfo.processInfo.environment
            environment.merge(launch.environment(scratchFolder)) { $1 }
            environment["SWIFT_BACKTRACE"] = "enable=no"
            let argv = ([executable] + launch.arguments(scratchFolder)).map { strdup($0) } + [nil]
            let envp = environment.keys.sorted().map { strdup("\($0)=\(environment[$0]!)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        }
        close(toChild[0]); close(fromChild[1])
        unlink(path)
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0]); close(errorFile)
            ScratchFolder.remove(scratchFolder)
            throw WorkerError.system(forks ? "cannot fork this process into a worker" : "cannot start the worker \(executable)", status)
        }
        _ = fcntl(errorFile, F_SETFD, FD_CLOEXEC)
        self.pid = pid
        self.scratchFolder = scratchFolder
        self.input = toChild[1]
        self.output = fromChild[0]
        self.errorFile = errorFile
    }

    #if canImport(Glibc)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamSocket = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif

    deinit {
        if reaped == nil { WorkerProcess.stop([self]) }
        close(input)
        close(output)
        close(errorFile)
    }

    /// Sends one request line; false when the worker is gone.
    @discardableResult
    func send(_ line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { socketSend(input, $0.baseAddress! + offset, $0.count - offset, WorkerProcess.noSignal) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        bytes.removeAll()
        return true
    }

    /// Reads what the worker wrote (call when `poll` says the output is readable); false at end of file.
    func fill() -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            if lineStart > 0 && lineStart == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                lineStart = 0
            }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// The next complete line the worker wrote, if any.
    func nextLine() -> String? {
        nextLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next complete line as bytes (without its newline), if any: the search reads tens of
    /// thousands of case announcements a second and parses them without making strings.
    func nextLineBytes() -> ArraySlice<UInt8>? {
        guard let newline = buffer[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
            if lineStart > 0 {
                buffer.removeSubrange(0..<lineStart)
                lineStart = 0
            }
            return nil
        }
        let line = buffer[lineStart..<newline]
        lineStart = newline + 1
        return line
    }

    /// Waits until the output is readable or `timeout` seconds pass (nil: forever); true when readable.
    func waitReadable(timeout: Double?) -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(Swift.max(0, Swift.min($0 * 1000, 1e9)).rounded(.up)) } ?? -1
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Asks the worker to stop (SIGTERM): it ends between cases, a shrink it is making once it answered.
    func terminate() {
        if reaped == nil { _ = signalProcess(pid, SIGTERM) }
    }

    /// Kills the worker (SIGKILL: a case that hangs, a worker that did not stop when asked) and reaps it.
    func kill() -> WorkerTermination {
        if let reaped { return reaped }
        _ = signalProcess(pid, SIGKILL)
        return wait()
    }

    /// Waits for the worker to end and reaps it; removes its scratch folder.
    func wait() -> WorkerTermination {
        if let reaped { return reaped }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return reap(status)
    }

    /// Reaps the worker if it has ended; true when it has.
    private func reapIfEnded() -> Bool {
        if reaped != nil { return true }
        var status: Int32 = 0
        var ended: pid_t
        repeat { ended = waitpid(pid, &status, WNOHANG) } while ended < 0 && errno == EINTR
        guard ended != 0 else { return false }
        _ = reap(ended == pid ? status : 0)  // an error: nothing left to wait for
        return true
    }

    private func reap(_ status: Int32) -> WorkerTermination {
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, spelled out (they are macros in C).
        let signal = status & 0x7F
        let termination: WorkerTermination = signal != 0 && signal != 0x7F ? .signaled(signal) : .exited((status >> 8) & 0xFF)
        reaped = termination
        // Whatever a worker killed mid-case left (a store file, a cache folder) goes with its folder.
        ScratchFolder.remove(scratchFolder)
        return termination
    }

    /// Seconds `stop` waits for workers to end on their own before killing them: longer than the
    /// worker's own `WorkerShutdown.grace`, after which it ends itself.
    static let stopGrace = 1.0

    /// Stops `workers` politely, all at once: their input is closed (an idle worker ends at once)
    /// and they get SIGTERM (a busy one ends after its case), so each removes its own scratch files;
    /// those still running after `stopGrace` seconds are killed. Every one is reaped and its scratch
    /// folder removed.
    static func stop(_ workers: [WorkerProcess]) {
        let running = workers.filter { $0.reaped == nil }
        for worker in running {
            shutdown(worker.input, Int32(SHUT_WR))
            _ = signalProcess(worker.pid, SIGTERM)
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int64(stopGrace * 1000)))
        var left = running
        while !left.isEmpty && clock.now < deadline {
            left = left.filter { !$0.reapIfEnded() }
            if !left.isEmpty { usleep(5_000) }
        }
        for worker in left { _ = worker.kill() }
    }

    /// The first line of the trap message the worker wrote to standard error, from "Fatal error:"
    /// on when present (the file and line before it are dropped), else the first non-empty line.
    func trapMessage() -> String {
        WorkerProcess.trapMessage(in: standardError())
    }

    /// What the worker wrote to standard error so far (at most 64 KiB).
    func standardError() -> String {
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(errorFile, $0.baseAddress! + total, $0.count - total, off_t(total)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        return String(decoding: bytes[0..<total], as: UTF8.self)
    }

    /// The trap line when the worker trapped in the harness itself (a `fatalError` or
    /// precondition in GraphFuzz's own modules), nil otherwise: a fault of the harness,
    /// never a crash of the code under test.
    func harnessFault() -> String? { WorkerProcess.harnessFault(in: standardError()) }

    static let harnessModules = ["GraphFuzzEngine/", "GraphFuzzIsolation/", "GraphFuzzCLI/", "GraphFuzzTesting/"]

    static func harnessFault(in text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let range = line.firstRange(of: "Fatal error") else { continue }
            let location = line[..<range.lowerBound]
            if harnessModules.contains(where: { location.hasPrefix($0) || location.contains("/" + $0) }) {
                return Whitespace.spaces.trim(line)
            }
        }
        return nil
    }

    static func trapMessage(in text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { Whitespace.spaces.trim($0) }.filter { !$0.isEmpty }
        for line in lines {
            if let range = line.firstRange(of: "Fatal error:") { return String(line[range.lowerBound...]) }
        }
        return lines.first ?? ""
    }
}

/// `kill(2)` (the method `WorkerProcess.kill()` shadows the name).
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.kill(pid, signal)
    #else
    return Darwin.kill(pid, signal)
    #endif
}

/// `send(2)` (the method `WorkerProcess.send(_:)` shadows the name).
private func socketSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
    return Glibc.send(socket, bytes, count, flags)
    #else
    return Darwin.send(socket, bytes, count, flags)
    #endif
}
#endif
