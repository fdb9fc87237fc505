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
    /// What the finished batches exercised.
    var coverage = Coverage()
    /// The search stopped early: SIGINT or SIGTERM.
    var interrupted = false
}

/// Runs a target's cases in `jobs` worker processes (`graph-fuzz worker`), surviving crashes and
/// hangs, and shrinks each failure signature by replaying candidates in a worker.
///
/// Cases are generated from the seed and their index alone and handed out in chunks
/// (`CaseCursor`); results are merged by case index, so with a fixed seed the failures found and
/// their shrunk cases are the same whatever `jobs` is. The run does not stop at a failure:
/// failures are grouped by signature (`FailureGroups`), and each group is shrunk once, from its
/// lowest failing case, as soon as every case below that one has run (so failures are reported
/// while the search goes on, in case order).
///
/// A worker that dies or runs out of time is only a suspicion: the case runs again in a fresh
/// worker (`WorkerSearch.confirm`), and is a `crash` only when it dies again of the same trap, a
/// `hang` only when one of its steps runs longer than the timeout.
struct WorkerSearch {
    var target: Target
    var mutant: String?
    var options: SearchOptions
    var maxSteps: Int
    var jobs: Int
    /// A case still running after this many seconds is suspected of hanging (see `confirm`).
    var caseTimeout: Double
    /// The `graph-fuzz` executable that workers run.
    var executable: String
    /// What the search reports while it runs.
    var events = WorkerSearchEvents()

    /// Shrink candidates get this timeout for each step: the case timeout, but at most one second.
    var candidateTimeout: Double { Swift.min(caseTimeout, 1) }
    /// At most this many shrink candidates per failure may time out; after that the shrink stops
    /// trying new candidates (each costs `candidateTimeout`).
    static let maxTimedOutCandidates = 24
    /// Microseconds the parent waits between reads of the workers' case announcements (a pipe
    /// holds thousands of them, so workers never block on it).
    static let announcementPause: UInt32 = 3_000

    var workerArguments: WorkerArguments {
        WorkerArguments(target: target.name, mutant: mutant, steps: maxSteps, seed: options.seed)
    }

    func run() throws(WorkerError) -> WorkerSearchResult {
        let clock = ContinuousClock()
        let machine = target.machine(mutant: mutant)
        let client = WorkerClient(executable: executable, arguments: workerArguments)
        var state = try searchPhase(clock: clock, machine: machine, client: client)
        // Every case has run: the groups not shrunk yet are final.
        for group in state.groups.sorted where !state.shrunk.contains(group.signature) && !state.interrupted {
            try shrinkAndReport(group, state: &state, machine: machine, client: client, clock: clock)
        }
        let counts = Dictionary(uniqueKeysWithValues: state.groups.sorted.map { ($0.signature, $0.count) })
        let found = state.found.map { found in
            var found = found
            if let signature = found.result.failure?.failure.signature { found.caseCount = counts[signature] ?? found.caseCount }
            return found
        }
        return WorkerSearchResult(cases: state.cases, rejected: state.rejected, steps: state.steps, seconds: state.seconds,
                                  found: found, coverage: state.coverage, interrupted: state.interrupted)
    }

    // MARK: Search

    struct SearchState {
        var cases = 0, rejected = 0, steps = 0
        /// Search time so far (shrinking excluded).
        var seconds = 0.0
        var groups = FailureGroups()
        /// What the finished batches exercised (a batch whose worker died adds nothing).
        var coverage = Coverage()
        var shrunk: Set<FailureSignature> = []
        var found: [WorkerSearchResult.Found] = []
        /// Crash or hang signatures that did not come back when shrinking began: not reported.
        var unconfirmed: Set<FailureSignature> = []
        var interrupted = false
    }

    /// Shrinks `group`, records it and reports it (`events.found`).
    private func shrinkAndReport(_ group: FailureGroups.Group, state: inout SearchState, machine: AnyMachine, client: WorkerClient,
                                 clock: ContinuousClock) throws(WorkerError) {
        let shrinkStart = clock.now
        guard let found = try shrink(group, machine: machine, client: client) else {
            state.shrunk.insert(group.signature)
            state.unconfirmed.insert(group.signature)
            events.note("the \(group.failure.kind.rawValue) of case \(group.firstCase) of \(target.name) did not happen again when the case "
                + "was run once more to shrink it: not reported as a failure of the code under test")
            return
        }
        let seconds = state.seconds + (clock.now - shrinkStart).seconds
        let failure = FoundFailure(caseIndex: group.firstCase, original: found.original, shrunk: found.shrink.sequence,
                                   failure: found.failure, shrink: found.shrink, seconds: seconds)
        let result = TargetSearchResult(
            target: target.name, mutant: mutant, options: options, maxSteps: maxSteps,
            search: SearchResult(cases: state.cases, rejected: state.rejected, seconds: state.seconds, failure: failure),
            steps: state.steps, originalSteps: found.originalSteps, counterexample: found.record,
            declaredRules: target.declaredRules(mutant))
        let entry = WorkerSearchResult.Found(result: result, caseCount: group.count)
        state.shrunk.insert(group.signature)
        state.found.append(entry)
        events.found(entry)
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

        /// The lowest case of this slot's chunks that has not finished (a re-queued chunk waiting
        /// behind the running one may hold lower cases than it).
        var lowestUnfinished: Int? {
            guard let first = chunks.first else { return nil }
            return chunks.dropFirst().map(\.start).reduce(current ?? first.start, Swift.min)
        }
    }

    /// Chunks last about this long, so the parent reads each worker's pipe rarely and a time
    /// limit is overshot by little.
    static let chunkSeconds = 0.02

    private func searchPhase(clock: ContinuousClock, machine: AnyMachine, client: WorkerClient) throws(WorkerError) -> SearchState {
        var state = SearchState()
        var cursor = CaseCursor(runs: options.runs, shardIndex: options.shardIndex, shardCount: options.shardCount)
        /// The rest of chunks whose worker died, run before new chunks (next at the end).
        var requeued: [CaseChunk] = []
        let start = clock.now
        /// Time spent shrinking and confirming suspects, which the time limit does not count.
        var paused = Duration.zero
        func searchSeconds() -> Double { (clock.now - start - paused).seconds }
        var lastProgress = clock.now
        let slots = (0..<Swift.max(1, jobs)).map { _ in Slot(now: start) }
        let confirmer = WorkerClient(executable: executable, arguments: workerArguments)
        /// Workers lost since a batch last finished or a suspected case got its verdict: too many
        /// (workers dying before they run any case) is an infrastructure error.
        var deathsInARow = 0

        /// The next chunk: sized from the cases per second so far, small at first, and small
        /// enough at the end that every worker gets a share of the last cases.
        func nextChunk() -> CaseChunk? {
            if let chunk = requeued.popLast() { return chunk }
            let elapsed = searchSeconds()
            let rate = state.cases > 0 && elapsed > 0 ? Double(state.cases) / elapsed / Double(slots.count) : 0
            let wanted = rate > 0 ? Int(rate * WorkerSearch.chunkSeconds) : 16
            let share = (cursor.remaining + 2 * slots.count - 1) / (2 * slots.count)
            return cursor.take(Swift.min(Swift.max(1, Swift.min(wanted, 16_384)), Swift.max(1, share)))
        }

        /// The lowest case that has not finished: every group whose first case is below it is final.
        func frontier() -> Int {
            var lowest = cursor.remaining > 0 ? cursor.next : Int.max
            for slot in slots { if let index = slot.lowestUnfinished { lowest = Swift.min(lowest, index) } }
            for chunk in requeued { lowest = Swift.min(lowest, chunk.start) }
            return lowest
        }

        /// A worker died or ran out of time on its announced case: the cases before it count as
        /// run, the rest of its chunks go back in the queue, and the case itself runs again in a
        /// fresh worker to learn whether it really crashes or hangs.
        func lost(_ slot: Slot, _ suspicion: Suspicion) throws(WorkerError) {
            deathsInARow += 1
            if deathsInARow > WorkerSearch.maxDeathsInARow(jobs: slots.count) {
                throw WorkerError(message: "infrastructure error: \(deathsInARow) workers for \(target.name) died in a row without finishing "
                    + "a batch of cases and without a reproducing case (last: \(suspicion.description)); a worker killed from outside "
                    + "(the OOM killer, a CI runner's limits) is not a failure of the code under test")
            }
            guard let chunk = slot.chunks.first, let current = slot.current else {
                // Died before its first case: nothing to blame on a case. Killed from outside, its
                // chunks run again; ended by itself (bad arguments, a harness fault), it is an error.
                let message = slot.process?.standardError().split(separator: "\n").first.map(String.init) ?? ""
                if case .died(let termination, _) = suspicion, case .exited = termination {
                    throw WorkerError(message: "a worker for \(target.name) ended (\(termination.name)) before running a case"
                        + (message.isEmpty ? "" : ": \(message)"))
                }
                requeued.append(contentsOf: slot.chunks.reversed())
                slot.process = nil
                slot.chunks = []
                events.note("a worker died of \(suspicion.description) before it ran a case of \(target.name); its cases run in a fresh "
                    + "worker: not a failure of the code under test")
                return
            }
            state.cases += (current - chunk.start) / chunk.stride
            state.steps += slot.steps
            state.rejected += slot.rejected
            requeued.append(contentsOf: slot.chunks.dropFirst().reversed())
            if let rest = chunk.remaining(after: current) { requeued.append(rest) }
            slot.process = nil
            slot.chunks = []
            slot.current = nil
            let confirmStart = clock.now
            let verdict = try confirm(case: current, suspicion, client: confirmer)
            paused += clock.now - confirmStart
            deathsInARow = 0  // the case got its verdict: the machine can run cases
            state.cases += 1
            switch verdict {
            case .reproduced(let failure):
                state.groups.add(case: current, failure)
            case .ran(let outcome, let steps, let note):
                events.note(note)
                state.steps += steps
                switch outcome {
                case .pass: break
                case .rejected: state.rejected += 1
                case .fail(let failure): state.groups.add(case: current, failure)
                }
            }
        }

        while true {
            if events.stopRequested() {
                for slot in slots { slot.process = nil }
                state.interrupted = true
                break
            }
            let limit = options.timeLimit.map { start.advanced(by: .milliseconds(Int64($0 * 1000))) + paused }
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

            var timeout = events.progressInterval
            for slot in busy where slot.current != nil {
                timeout = Swift.min(timeout, Swift.max(0, caseTimeout - (clock.now - slot.started).seconds))
            }
            var descriptors = busy.map { pollfd(fd: $0.process!.output, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32((timeout * 1000).rounded(.up)))
            if ready < 0 && errno != EINTR { throw WorkerError.system("poll failed", errno) }

            var freed = false
            for (slot, descriptor) in zip(busy, descriptors) where ready > 0 && descriptor.revents != 0 {
                let process = slot.process!
                guard process.fill() else {
                    let termination = process.wait()
                    if let fault = process.harnessFault() { throw WorkerError.harness(fault) }
                    try lost(slot, .died(termination, trapMessage: process.trapMessage()))
                    freed = true
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
                    case UInt8(ascii: "c"):
                        guard let coverage = Coverage(line: scanner.rest) else { throw malformed(line) }
                        state.coverage.merge(coverage)
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
                        deathsInARow = 0
                        freed = true
                    default:
                        throw malformed(line)
                    }
                }
            }
            for slot in busy where !slot.chunks.isEmpty && slot.current != nil && (clock.now - slot.started).seconds >= caseTimeout {
                _ = slot.process!.kill()
                try lost(slot, .timedOut)
                freed = true
            }
            // Failures whose lowest case is final are shrunk and reported now, not after the search.
            let lowest = frontier()
            for group in state.groups.sorted where group.firstCase < lowest && !state.shrunk.contains(group.signature) {
                let shrinkStart = clock.now
                state.seconds = searchSeconds()
                try shrinkAndReport(group, state: &state, machine: machine, client: client, clock: clock)
                paused += clock.now - shrinkStart
            }
            if (clock.now - lastProgress).seconds >= events.progressInterval {
                lastProgress = clock.now
                let elapsed = searchSeconds()
                events.progress(WorkerSearchProgress(cases: state.cases, failures: state.groups.sorted.count, seconds: elapsed,
                                                     secondsLeft: options.timeLimit.map { Swift.max(0, $0 - elapsed) }))
            }
            // Case announcements only matter when a worker dies or hangs: let them collect in the
            // pipe for a moment rather than waking for each, which would take CPU from the workers.
            if !freed && ready > 0 { usleep(WorkerSearch.announcementPause) }
        }
        state.seconds = searchSeconds()
        return state
    }

    /// Workers that may die in a row (no batch finishing between) before the run gives up.
    static func maxDeathsInARow(jobs: Int) -> Int { 2 * jobs + 6 }

    private func malformed(_ line: ArraySlice<UInt8>) -> WorkerError {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return WorkerError(message: "a worker for \(target.name) wrote '\(text)', which is not in the worker protocol")
    }
}

/// What a running search reports to its caller.
struct WorkerSearchEvents {
    /// A failure, shrunk, as soon as its lowest failing case is final (in case order). Its
    /// `caseCount` is the count so far; the search's result holds the final one.
    var found: (WorkerSearchResult.Found) -> Void = { _ in }
    /// Something the harness did that is not a failure of the code under test: a worker killed
    /// from outside, a slow case that finished when run again.
    var note: (String) -> Void = { _ in }
    /// The search so far, about every `progressInterval` seconds.
    var progress: (WorkerSearchProgress) -> Void = { _ in }
    var progressInterval = 1.0
    /// True once the run must stop (SIGINT, SIGTERM): workers are killed and the search returns.
    var stopRequested: () -> Bool = { false }
}

/// A search's progress, for a progress line.
struct WorkerSearchProgress: Equatable {
    var cases: Int
    /// Failure signatures found so far.
    var failures: Int
    var seconds: Double
    /// Seconds left of `--time`, nil without it.
    var secondsLeft: Double?
}
