#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command writes: standard output, standard error, and whether stderr is a terminal.
/// Tests pass a console that collects the text.
package struct Console {
    package var out: (String) -> Void
    package var err: (String) -> Void
    package var isTerminal: Bool
    /// The first write that failed, as one line ("cannot write to standard output: No space left on
    /// device"), or nil while every write succeeded. A run stops at it (workers stopped, temporary
    /// files removed) and `graph-fuzz` exits 3.
    package var writeFailure: () -> String?
    /// True when standard output failed because its reader went away (a closed pipe: `graph-fuzz list | head -1`).
    /// That is no fault of graph-fuzz: the run stops the same way but says nothing and exits 141, as a program
    /// ended by SIGPIPE does.
    package var readerGone: () -> Bool

    package init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, isTerminal: Bool,
                writeFailure: @escaping () -> String? = { nil }, readerGone: @escaping () -> Bool = { false }) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
        self.writeFailure = writeFailure
        self.readerGone = readerGone
    }

    /// The process's standard output and error. A failed write (a full disk, a closed pipe) is
    /// recorded rather than trapping; later writes to that stream are dropped.
    package static func standard() -> Console {
        let streams = StandardStreams()
        return Console(out: { streams.write($0, to: STDOUT_FILENO) }, err: { streams.write($0, to: STDERR_FILENO) },
                       isTerminal: isatty(STDERR_FILENO) == 1, writeFailure: { streams.failure },
                       readerGone: { streams.outputPipeClosed })
    }
}

/// Writes to standard output and error with `write(2)`, remembering the first failure of each.
private final class StandardStreams: Sendable {
    private let failures = Mutex<[Int32: String]>([:])
    private let closedPipe = Atomic<Bool>(false)

    /// Whether standard output failed with EPIPE (its reader closed the pipe).
    var outputPipeClosed: Bool { closedPipe.load(ordering: .relaxed) }

    /// The first failure, standard output's before standard error's.
    var failure: String? {
        failures.withLock { $0[STDOUT_FILENO] ?? $0[STDERR_FILENO] }
    }

    func write(_ text: String, to descriptor: Int32) {
        guard failures.withLock({ $0[descriptor] == nil }) else { return }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { writeBytes(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                if written < 0 && errno == EPIPE && descriptor == STDOUT_FILENO { closedPipe.store(true, ordering: .relaxed) }
                let reason = written < 0 ? FileIO.reason(errno) : "nothing was written"
                let name = descriptor == STDOUT_FILENO ? "standard output" : "standard error"
                failures.withLock { $0[descriptor] = "cannot write to \(name): \(reason)" }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

/// `write(2)` (the method `StandardStreams.write(_:to:)` shadows the name).
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
