import Foundation
import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a search in worker processes found: every failure signature, shrunk once from its
/// lowest failing case, with the number of cases that hit it.
struct WorkerSearchResult {
    struct Found {
        /// The shrunk failure, in the shape reports and the corpus take.
        var result: TargetSearchResult
        /// Cases that failed with this signature.
        var caseCount: Int
    }

    var cases: Int
    var rejected: Int
    /// Steps run by the search (not counting shrinking).
    var steps: Int
    /// Search time (not counting shrinking).
    var seconds: Double
    var found: [Found]
}

/// Runs a target's cases in `jobs` worker processes (`graph-fuzz worker`), surviving crashes and
/// hangs, then shrinks each failure signature by replaying candidates in a worker.
///
/// Cases are generated from the seed and their index alone and handed out in chunks
/// (`CaseCursor`); results are merged by case index, so with a fixed seed the failures found and
/// their shrunk cases are the same whatever `jobs` is. The run does not stop at a failure: failures are grouped by signature
/// (`FailureGroups`), and each group is shrunk once, from its lowest failing case.
struct WorkerSearch {
    var target: Target
    var mutant: String?
    var options: SearchOptions
    var maxSteps: Int
    var jobs: Int
    /// A case still running after this many seconds is killed and reported as a hang.
    var caseTimeout: Double
    /// The `graph-fuzz` executable that workers run.
    var executable: String

    /// Shrink candidates get this timeout: the case timeout, but at most one second.
    var candidateTimeout: Double { Swift.min(caseTimeout, 1) }
    /// At most this many shrink candidates per failure may time out; after that the shrink stops
    /// trying new candidates (each costs `candidateTimeout`).
    static let maxTimedOutCandidates = 24
    /// Microseconds the parent waits between reads of the workers' case announcements (a pipe
    /// holds thousands of them, so workers never block on it).
    static let announcementPause: UInt32 = 3_000

    private var workerArguments: WorkerArguments {
        WorkerArguments(target: target.name, mutant: mutant, steps: maxSteps, seed: options.seed)
    }

    func run() throws(WorkerError) -> WorkerSearchResult {
        let clock = ContinuousClock()
        let start = clock.now
        var search = try searchPhase(clock: clock)
        search.seconds = (clock.now - start).seconds
        let machine = target.machine(mutant: mutant)
        let client = WorkerClient(executable: executable, arguments: workerArguments)
        for group in search.groups.sorted {
            let found = try shrink(group, machine: machine, client: client)
            let seconds = (clock.now - start).seconds
            let failure = FoundFailure(caseIndex: group.firstCase, original: found.original, shrunk: found.shrink.sequence,
                                       failure: found.failure, shrink: found.shrink, seconds: seconds)
            let result = TargetSearchResult(
                target: target.name, mutant: mutant, options: options, maxSteps: maxSteps,
                search: SearchResult(cases: search.cases, rejected: search.rejected, seconds: search.seconds, failure: failure),
                steps: search.steps, originalSteps: found.originalSteps, counterexample: found.record)
            search.found.append(WorkerSearchResult.Found(result: result, caseCount: group.count))
        }
        return WorkerSearchResult(cases: search.cases, rejected: search.rejected, steps: search.steps, seconds: search.seconds,
                                  found: search.found)
    }

    // MARK: Search

    private struct SearchState {
        var cases = 0, rejected = 0, steps = 0
        var seconds = 0.0
        var groups = FailureGroups()
        var found: [WorkerSearchResult.Found] = []
    }

    /// A worker slot: its process, the chunks sent to it (the first is running, the next waits in
    /// its pipe so it never idles between chunks) and the case it announced last.
    private final class Slot {
        var process: WorkerProcess?
        var chunks: [CaseChunk] = []
        var current: Int?
        var started: ContinuousClock.Instant
        var steps = 0, rejected = 0
        init(now: ContinuousClock.Instant) { started = now }
    }

    /// Chunks last about this long, so the parent reads each worker's pipe rarely and a time
    /// limit is overshot by little.
    static let chunkSeconds = 0.02

    private func searchPhase(clock: ContinuousClock) throws(WorkerError) -> SearchState {
        var state = SearchState()
        var cursor = CaseCursor(runs: options.runs, shardIndex: options.shardIndex, shardCount: options.shardCount)
        /// The rest of chunks whose worker died, run before new chunks (next at the end).
        var requeued: [CaseChunk] = []
        let start = clock.now
        let limit = options.timeLimit.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) }
        let slots = (0..<Swift.max(1, jobs)).map { _ in Slot(now: start) }

        /// The next chunk: sized from the cases per second so far, small at first, and small
        /// enough at the end that every worker gets a share of the last cases.
        func nextChunk() -> CaseChunk? {
            if let chunk = requeued.popLast() { return chunk }
            let elapsed = (clock.now - start).seconds
            let rate = state.cases > 0 && elapsed > 0 ? Double(state.cases) / elapsed / Double(slots.count) : 0
            let wanted = rate > 0 ? Int(rate * WorkerSearch.chunkSeconds) : 16
            let share = (cursor.remaining + 2 * slots.count - 1) / (2 * slots.count)
            return cursor.take(Swift.min(Swift.max(1, Swift.min(wanted, 16_384)), Swift.max(1, share)))
        }

        /// Accounts for a dead or killed worker: the announced case failed; the rest of its chunks go back in the queue.
        func lost(_ slot: Slot, _ failure: Failure) throws(WorkerError) {
            guard let chunk = slot.chunks.first, let current = slot.current else {
                let message = slot.process?.trapMessage() ?? ""
                throw WorkerError(message: "a worker for \(target.name) ended before running a case\(message.isEmpty ? "" : ": \(message)")")
            }
            state.cases += (current - chunk.start) / chunk.stride + 1
            state.steps += slot.steps
            state.rejected += slot.rejected
            state.groups.add(case: current, failure)
            requeued.append(contentsOf: slot.chunks.dropFirst().reversed())
            if let rest = chunk.remaining(after: current) { requeued.append(rest) }
            slot.process = nil
            slot.chunks = []
            slot.current = nil
        }

        while true {
            let timeUp = limit.map { state.cases > 0 && clock.now >= $0 } ?? false
            for slot in slots where slot.chunks.count < 2 && !timeUp {
                guard let chunk = nextChunk() else { break }
                if slot.process == nil {
                    slot.process = try WorkerProcess(executable: executable, arguments: workerArguments.commandLine)
                }
                if slot.chunks.isEmpty {
                    slot.current = nil
                    slot.started = clock.now
                }
                slot.chunks.append(chunk)
                // A worker that is already dead fails the write; the next poll then sees its output end.
                _ = slot.process!.send("b \(chunk.start) \(chunk.stride) \(chunk.count)")
            }
            let busy = slots.filter { !$0.chunks.isEmpty }
            if busy.isEmpty { break }

            var timeout = -1.0
            for slot in busy where slot.current != nil {
                let left = caseTimeout - (clock.now - slot.started).seconds
                timeout = timeout < 0 ? Swift.max(0, left) : Swift.min(timeout, Swift.max(0, left))
            }
            var descriptors = busy.map { pollfd(fd: $0.process!.output, events: Int16(POLLIN), revents: 0) }
            let milliseconds = timeout < 0 ? Int32(-1) : Int32((timeout * 1000).rounded(.up))
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 && errno != EINTR { throw WorkerError.system("poll failed", errno) }

            var freed = false
            for (slot, descriptor) in zip(busy, descriptors) where ready > 0 && descriptor.revents != 0 {
                let process = slot.process!
                guard process.fill() else {
                    let termination = process.wait()
                    try lost(slot, WorkerFailure.crash(termination, trapMessage: process.trapMessage()))
                    continue
                }
                while let line = process.nextLineBytes() {
                    var scanner = LineScanner(line)
                    switch line.first {
                    case UInt8(ascii: "s"):
                        guard let index = scanner.int(), let steps = scanner.int(), let rejected = scanner.int(), scanner.atEnd else {
                            throw malformed(line)
                        }
                        slot.current = index
                        slot.started = clock.now
                        slot.steps = steps
                        slot.rejected = rejected
                    case UInt8(ascii: "f"):
                        guard let index = scanner.int(), let failure = WorkerProtocol.decodeOutcome(scanner.rest)?.failure else {
                            throw malformed(line)
                        }
                        state.groups.add(case: index, failure)
                    case UInt8(ascii: "d"):
                        guard let steps = scanner.int(), let rejected = scanner.int(), scanner.atEnd, let chunk = slot.chunks.first else {
                            throw malformed(line)
                        }
                        state.cases += chunk.count
                        state.steps += steps
                        state.rejected += rejected
                        slot.chunks.removeFirst()
                        slot.current = nil
                        slot.steps = 0
                        slot.rejected = 0
                        freed = true
                    default:
                        throw malformed(line)
                    }
                }
            }
            for slot in busy where !slot.chunks.isEmpty && slot.current != nil && (clock.now - slot.started).seconds >= caseTimeout {
                _ = slot.process!.kill()
                try lost(slot, WorkerFailure.hang(seconds: caseTimeout))
                freed = true
            }
            // Case announcements only matter when a worker dies or hangs: let them collect in the
            // pipe for a moment rather than waking for each, which would take CPU from the workers.
            if !freed && ready > 0 { usleep(WorkerSearch.announcementPause) }
        }
        return state
    }

    private func malformed(_ line: ArraySlice<UInt8>) -> WorkerError {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return WorkerError(message: "a worker for \(target.name) wrote '\(text)', which is not in the worker protocol")
    }
}
