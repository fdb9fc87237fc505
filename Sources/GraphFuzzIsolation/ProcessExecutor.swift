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

/// Runs a machine's cases for the search loop (`SearchLoop`) in `workers` worker processes started as a
/// `WorkerLaunch` says (`graph-fuzz worker`, or a test binary run again for one check), surviving crashes and
/// hangs: the process-backed `CaseExecutor`. It holds no seed and no machine: every request carries the run's seed,
/// and every case runs in a worker, which answers with what the case consumed, so this process never runs one.
///
/// Chunks are sent to workers as the loop submits them, two per worker (the second waits in its
/// pipe so the worker never idles); failures arrive in any order and the loop orders them.
/// A worker that dies or runs out of time is only a suspicion: the case runs again in a fresh
/// worker (`confirm`), and is a `crash` only when it dies again of the same trap, a `hang` only
/// when one of its steps runs longer than the timeout; the rest of the worker's chunks run again.
/// Shrink candidates run in a worker too (`ProcessExecutor+Shrink`), so a candidate that crashes
/// or hangs costs a worker, never the run.
package final class ProcessExecutor: CaseExecutor {
    /// What the workers run, for messages: a target's name.
    let name: String
    package let workers: Int
    package var chunkSize: Int? { nil }
    /// A case still running after this many seconds is suspected of hanging (see `confirm`).
    let caseTimeout: Double
    /// Something the harness did that is not a failure of the code under test: a worker killed
    /// from outside, a slow case that finished when run again.
    let note: (String) -> Void
    /// The worker that runs shrink candidates, and the one that runs suspected cases again.
    let client: WorkerClient
    let confirmer: WorkerClient
    /// How search workers start: as given, until a shrink in a batch takes a worker down; from then on without
    /// shrinking in their batches (`WorkerServer.noBatchShrinkVariable`), so no fresh worker meets that candidate again.
    private var launch: WorkerLaunch
    private let slots: [Slot]
    /// Submitted chunks not sent to a worker yet, in order.
    private var queue: [SeededChunk] = []
    /// The rest of chunks whose worker died, sent before new chunks (next at the end).
    private var requeued: [SeededChunk] = []
    /// Workers lost since a batch last finished or a suspected case got its verdict: too many
    /// (workers dying before they run any case) is an infrastructure error.
    private var deathsInARow = 0
    /// How each failing case failed (a case reported once, however often it runs), to know which died in a worker.
    var caseFailures: [Int: Failure] = [:]
    /// Failures a worker told as it began to shrink them where it ran them (`v`), until it tells them as failures.
    private var met: [Int: Failure] = [:]
    package var metFailures: [CaseFailure] { met.keys.sorted().map { CaseFailure(index: $0, failure: met[$0]!) } }
    /// The lowest failing case told so far: until every case below it has finished, the loop waits on the workers'
    /// announcements to settle it.
    private var lowestFailure: Int?
    /// Requests sent, by kind: what the cases cost (a case runs once; tests count).
    package internal(set) var requests = RequestCounts()
    /// What the shrink of the current group learned (see `ProcessExecutor+Shrink`).
    var shrinking = ShrinkState()
    /// Failures the workers shrank in their batches, by case: a group whose lowest case is one of them is settled
    /// from it (`runAndShrink`, `describe`).
    var batchShrinks: [Int: BatchShrink] = [:]
    /// The description of the shrunk case of the group being settled from a batch's shrink.
    var batchDescription: (sequence: ChoiceSequence, result: CaseResult)?
    /// Whether a failure that did not take a worker down is shrunk in a worker (`runAndShrink`: where the search ran
    /// it, or in one request); false: candidate by candidate, a request each (what a shrink in a worker is checked
    /// against).
    package var shrinksInWorker = true

    /// Shrink candidates get this timeout for each step: the case timeout, but at most one second.
    var candidateTimeout: Double { Swift.min(caseTimeout, 1) }
    /// At most this many shrink candidates per failure may time out; after that the shrink stops
    /// trying new candidates (each costs `candidateTimeout`).
    static let maxTimedOutCandidates = 24
    /// Microseconds the parent waits between reads of the workers' case announcements (a pipe
    /// holds thousands of them, so workers never block on it).
    static let announcementPause: UInt32 = 3_000

    /// The cases of the machine `launch` starts workers for (named `name` in messages), in `workers` worker processes;
    /// `note` hears what the harness did that is no failure.
    package init(name: String, workers: Int, caseTimeout: Double, launch: WorkerLaunch, note: @escaping (String) -> Void = { _ in }) {
        self.name = name
        self.workers = Swift.max(1, workers)
        self.caseTimeout = caseTimeout
        self.launch = launch
        self.note = note
        client = WorkerClient(launch)
        confirmer = WorkerClient(launch)
        let now = ContinuousClock().now
        slots = (0..<Swift.max(1, workers)).map { _ in Slot(now: now) }
    }

    deinit { stop() }

    /// A chunk of cases of the run `seed`.
    private struct SeededChunk {
        var chunk: CaseChunk
        var seed: UInt64
    }

    /// A worker slot: its process, the chunks sent to it (the first is running, the next waits in
    /// its pipe so it never idles between chunks) and the case it announced last.
    private final class Slot {
        /// A shrink the worker was making or telling (`shrinkingCase`, `shrinking`) ends with it.
        var process: WorkerProcess? {
            didSet {
                shrinkingCase = nil
                shrinking = nil
            }
        }
        var chunks: [SeededChunk] = []
        /// The case the worker announced last (`s`).
        var current: Int? { didSet { currentFinished = false } }
        /// The announced case has finished: its failure was told (`f`), before the worker announces its next case.
        var currentFinished = false
        var started: ContinuousClock.Instant
        /// The case whose failure the worker is shrinking in its batch (`v`), until it tells the shrink or the failure.
        var shrinkingCase: Int?
        /// The failure the worker is telling it shrank in its batch (`g`, its record, then `G`).
        var shrinking: BatchShrink?
        init(now: ContinuousClock.Instant) { started = now }

        /// The lowest case of this slot's chunks that has not finished (a re-queued chunk waiting
        /// behind the running one may hold lower cases than it). A case whose failure was told has finished, so a
        /// group whose lowest case it is settles without waiting for the worker's next announcement.
        var lowestUnfinished: Int? {
            guard let first = chunks.first else { return nil }
            var running: Int? = current ?? first.chunk.start
            if currentFinished, let current { running = first.chunk.remaining(after: current)?.start }
            let waiting = chunks.dropFirst().map(\.chunk.start)
            guard let running else { return waiting.min() }
            return waiting.reduce(running, Swift.min)
        }
    }

    // MARK: Chunks

    package var wantsChunk: Bool { queue.isEmpty && requeued.isEmpty && slots.contains { $0.chunks.count < 2 } }
    package var isIdle: Bool { queue.isEmpty && requeued.isEmpty && slots.allSatisfy { $0.chunks.isEmpty } }

    package var lowestUnfinished: Int? {
        let starts = slots.compactMap(\.lowestUnfinished) + queue.map(\.chunk.start) + requeued.map(\.chunk.start)
        return starts.min()
    }

    package func submit(_ chunk: CaseChunk, seed: UInt64) throws(RunError) {
        queue.append(SeededChunk(chunk: chunk, seed: seed))
        do { try dispatchQueued() } catch { throw error.runError }
    }

    package func stopReporting() -> ChunkReport {
        // All at once, as `stop` does; a worker shrinking in its batch ends its shrink, tells it and its failure, and
        // ends. What the workers wrote up to their end is read before they are forgotten.
        WorkerProcess.stop(slots.compactMap(\.process))
        var report = ChunkReport()
        let clock = ContinuousClock()
        for slot in slots {
            guard let process = slot.process else { continue }
            while process.fill() {}
            while let line = process.nextLineBytes() { _ = try? read(line, slot: slot, clock: clock, into: &report) }
        }
        // The run stops either way: a harness fault told now would only stop it again.
        report.harnessFault = nil
        stop()
        return report
    }

    package func holdsShrink(case index: Int) -> Bool { shrinksInWorker && batchShrinks[index] != nil }

    package func stop() {
        queue = []
        requeued = []
        // All at once: each busy worker gets its grace to remove its scratch files, in parallel.
        WorkerProcess.stop(slots.compactMap(\.process))
        for slot in slots {
            slot.process = nil
            slot.chunks = []
            slot.current = nil
        }
    }

    /// Sends queued chunks to workers with room for them.
    private func dispatchQueued() throws(WorkerError) {
        let clock = ContinuousClock()
        for slot in slots where slot.chunks.count < 2 {
            let chunk: SeededChunk
            if let next = requeued.popLast() { chunk = next } else if !queue.isEmpty { chunk = queue.removeFirst() } else { break }
            if slot.process == nil { slot.process = try WorkerProcess(launch) }
            if slot.chunks.isEmpty {
                slot.current = nil
                slot.started = clock.now
            }
            slot.chunks.append(chunk)
            requests.cases += chunk.chunk.count
            // A worker that is already dead fails the write; the next poll then sees its output end.
            _ = slot.process!.send(WorkerRequest.batch(seed: chunk.seed, chunk.chunk).line)
        }
    }

    package func collect(timeout: Double, dispatch: Bool) throws(RunError) -> ChunkReport {
        do { return try collectTyped(timeout: timeout, dispatch: dispatch) } catch { throw error.runError }
    }

    private func collectTyped(timeout: Double, dispatch: Bool) throws(WorkerError) -> ChunkReport {
        let clock = ContinuousClock()
        var report = ChunkReport()
        if dispatch { try dispatchQueued() } else {
            // Time is up: chunks not started yet never run.
            queue = []
            requeued = []
        }
        let busy = slots.filter { !$0.chunks.isEmpty }
        guard !busy.isEmpty else { return report }
        var wait = timeout
        for slot in busy where slot.current != nil {
            wait = Swift.min(wait, Swift.max(0, caseTimeout - (clock.now - slot.started).seconds))
        }
        var descriptors = busy.map { pollfd(fd: $0.process!.output, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), Int32((wait * 1000).rounded(.up)))
        if ready < 0 && errno != EINTR { throw WorkerError.system("poll failed", errno) }

        var freed = false
        for (slot, descriptor) in zip(busy, descriptors) where ready > 0 && descriptor.revents != 0 {
            let process = slot.process!
            guard process.fill() else {
                let termination = process.wait()
                if let fault = process.harnessFault() { throw WorkerError.harness(fault) }
                try lost(slot, .died(termination, trapMessage: process.trapMessage()), into: &report)
                freed = true
                continue
            }
            while let line = process.nextLineBytes() {
                if try read(line, slot: slot, clock: clock, into: &report) { freed = true }
            }
        }
        for slot in busy where !slot.chunks.isEmpty && slot.current != nil && (clock.now - slot.started).seconds >= caseTimeout {
            _ = slot.process!.kill()
            try lost(slot, .timedOut, into: &report)
            freed = true
        }
        if dispatch { try dispatchQueued() }
        // Case announcements only matter when a worker dies or hangs, or when a failure waits for the cases below it:
        // else let them collect in the pipe for a moment rather than waking for each, which would take CPU from the
        // workers. A failure (or a harness fault) goes to the loop at once: it may settle a group, or end a search that
        // stops at its first.
        let told = !report.failures.isEmpty || report.harnessFault != nil
        // While a worker shrinks a failure where it ran it (its `f` line is coming), or the lowest failure waits for
        // cases below it (an announcement may be the one that lets it settle), the next line is read as it comes.
        let awaited = slots.contains { $0.shrinkingCase != nil }
            || lowestFailure.map { failing in (lowestUnfinished ?? .max) <= failing } ?? false
        if !freed && !told && !awaited && ready > 0 { usleep(ProcessExecutor.announcementPause) }
        return report
    }

    /// Reads one line of a worker's answer to a batch; true when it finished a chunk.
    private func read(_ line: ArraySlice<UInt8>, slot: Slot, clock: ContinuousClock, into report: inout ChunkReport) throws(WorkerError) -> Bool {
        var scanner = LineScanner(line)
        switch line.first {
        case UInt8(ascii: "s"):
            guard let index = scanner.int(), scanner.atEnd else { throw malformed(line) }
            slot.current = index
            slot.started = clock.now
        case UInt8(ascii: "f"):
            guard let index = scanner.int(), let outcome = OutcomeLine.decodeOutcome(scanner.rest), let seed = slot.chunks.first?.seed else {
                throw malformed(line)
            }
            slot.shrinkingCase = nil
            if index == slot.current { slot.currentFinished = true }
            switch outcome {
            case .fail(let failure): add(failure, case: index, to: &report)
            case .harnessFault(let fault): noteHarnessFault(fault, case: index, seed: seed, in: &report)
            case .pass, .rejected: throw malformed(line)
            }
        case UInt8(ascii: "v"):
            guard let index = scanner.int(), case .fail(let failure)? = OutcomeLine.decodeOutcome(scanner.rest) else { throw malformed(line) }
            slot.shrinkingCase = index
            if caseFailures[index] == nil { met[index] = failure }
        case UInt8(ascii: "h"):
            slot.started = clock.now  // a shrink in the batch goes on
        case UInt8(ascii: "g"), UInt8(ascii: "y"), UInt8(ascii: "G"):
            guard readBatchShrink(String(decoding: line, as: UTF8.self), slot: slot, into: &report) else { throw malformed(line) }
        case UInt8(ascii: "c"):
            guard let coverage = Coverage(line: scanner.rest) else { throw malformed(line) }
            report.coverage.merge(coverage)
        case UInt8(ascii: "d"):
            guard let steps = scanner.int(), let rejected = scanner.int(), scanner.atEnd, let chunk = slot.chunks.first?.chunk else {
                throw malformed(line)
            }
            report.cases += chunk.count
            report.steps += steps
            report.rejected += rejected
            slot.chunks.removeFirst()
            slot.current = nil
            deathsInARow = 0
            return true
        default:
            throw malformed(line)
        }
        return false
    }

    /// Reads a line of a failure a worker shrank in its batch (`WorkerServer.shrinkInBatch`): `g` starts it, the
    /// record's `y` lines follow, `G` ends it and keeps it for the group's shrink (`runAndShrink`). False when the
    /// line is not one.
    private func readBatchShrink(_ line: String, slot: Slot, into report: inout ChunkReport) -> Bool {
        let text = line.dropFirst(2)
        switch line.first {
        case "g":
            let fields = text.fields(UInt8(ascii: "\t"))
            let numbers = fields.first?.parts(UInt8(ascii: " ")) ?? []
            guard fields.count == 9, numbers.count == 3, let index = Int(numbers[0]), let steps = Int(numbers[1]),
                  let seconds = Double(numbers[2]), seconds >= 0,
                  let delta = ConsumedLine.decode(fields[1...5]), let shrink = ShrinkLine.decode(Substring(fields[6...8].joined(separator: "\t")))
            else { return false }
            var consumed = Consumed()
            consumed.apply(delta)
            // Shrinking is not search time, wherever it runs; the other workers searched on meanwhile, so the search
            // lost one worker's share of that wall time (the whole of it would make search time negative).
            report.pausedSeconds += seconds / Double(workers)
            slot.shrinking = BatchShrink(index: index, steps: steps, consumed: consumed, shrink: shrink,
                                         record: CaseRecord(config: TraceStep("config"), steps: [], expectations: [], outcome: .pass, swiftLines: []))
        case "y":
            guard slot.shrinking != nil else { return false }
            return RecordLines.read(text, into: &slot.shrinking!.record)
        default:
            guard var shrunk = slot.shrinking, let outcome = OutcomeLine.decodeOutcome(text) else { return false }
            shrunk.record.outcome = outcome
            batchShrinks[shrunk.index] = shrunk
            slot.shrinking = nil
        }
        return true
    }

    /// The lowest case whose harness faulted: the search stops with it.
    private func noteHarnessFault(_ fault: HarnessFault, case index: Int, seed: UInt64, in report: inout ChunkReport) {
        guard report.harnessFault.map({ index < $0.caseIndex }) ?? true else { return }
        report.harnessFault = CaseHarnessFault(seed: seed, caseIndex: index, fault: fault)
    }

    /// Reports case `index`'s failure, unless it was reported before (a case of a chunk that ran again after its
    /// worker died).
    private func add(_ failure: Failure, case index: Int, to report: inout ChunkReport) {
        met[index] = nil
        guard caseFailures[index] == nil else { return }
        caseFailures[index] = failure
        lowestFailure = Swift.min(lowestFailure ?? index, index)
        report.failures.append(CaseFailure(index: index, failure: failure))
    }

    /// A worker died or ran out of time on its announced case: the case itself runs again in a fresh worker to learn
    /// whether it really crashes or hangs, and the worker's chunks go back in the queue without it — the cases it had
    /// finished too, since their coverage was to come at the chunk's end (they run again; a failure among them is
    /// reported once).
    private func lost(_ slot: Slot, _ suspicion: Suspicion, into report: inout ChunkReport) throws(WorkerError) {
        deathsInARow += 1
        if deathsInARow > ProcessExecutor.maxDeathsInARow(jobs: slots.count) {
            throw WorkerError(.infrastructure, "\(deathsInARow) workers for \(name) died in a row without finishing "
                + "a batch of cases and without a reproducing case (last: \(suspicion.description)); a worker killed from outside "
                + "(the OOM killer, a CI runner's limits) is not a failure of the code under test")
        }
        guard let seeded = slot.chunks.first, let current = slot.current else {
            // Died before its first case: nothing to blame on a case. Killed from outside, its
            // chunks run again; ended by itself (bad arguments, a harness fault), it is an error.
            let message = slot.process?.standardError().split(separator: "\n").first.map(String.init) ?? ""
            if case .died(let termination, _) = suspicion, case .exited = termination {
                throw WorkerError(.internalError, "a worker for \(name) ended (\(termination.name)) before running a case"
                    + (message.isEmpty ? "" : ": \(message)"))
            }
            requeued.append(contentsOf: slot.chunks.reversed())
            slot.process = nil
            slot.chunks = []
            note("a worker died of \(suspicion.description) before it ran a case of \(name); its cases run in a fresh "
                + "worker: not a failure of the code under test")
            return
        }
        // Died or stuck while it shrank the failure of its current case: a candidate of that shrink, not the case.
        let shrinking = slot.shrinkingCase == current
        let chunk = seeded.chunk
        requeued.append(contentsOf: slot.chunks.dropFirst().reversed())
        if let rest = chunk.remaining(after: current) { requeued.append(SeededChunk(chunk: rest, seed: seeded.seed)) }
        if current > chunk.start {
            requeued.append(SeededChunk(chunk: CaseChunk(start: chunk.start, stride: chunk.stride, count: (current - chunk.start) / chunk.stride),
                                        seed: seeded.seed))
        }
        slot.process = nil
        slot.chunks = []
        slot.current = nil
        let clock = ContinuousClock()
        let confirmStart = clock.now
        let verdict = try confirm(case: current, seed: seeded.seed, suspicion, client: confirmer)
        report.pausedSeconds += (clock.now - confirmStart).seconds
        deathsInARow = 0  // the case got its verdict: the machine can run cases
        report.cases += 1
        switch verdict {
        case .reproduced(let failure):
            add(failure, case: current, to: &report)
        case .ran(let result, let what):
            if shrinking {
                note("a worker \(suspicion.whileShrinking) while it shrank the failure of case \(current) of \(name): one of the "
                    + "shrink's candidates did, not the case, which ran to the end run again in a fresh worker; the shrink is "
                    + "made again, and the search's workers no longer shrink where they run a failure")
                let environment = launch.environment
                launch.environment = { environment($0).merging([WorkerServer.noBatchShrinkVariable: "1"]) { $1 } }
            } else {
                note(what)
            }
            report.steps += result.steps
            report.coverage.merge(result.coverage)
            switch result.outcome {
            case .pass: break
            case .rejected: report.rejected += 1
            case .fail(let failure): add(failure, case: current, to: &report)
            case .harnessFault(let fault): noteHarnessFault(fault, case: current, seed: seeded.seed, in: &report)
            }
        }
    }

    /// Workers that may die in a row (no batch finishing between) before the run gives up.
    static func maxDeathsInARow(jobs: Int) -> Int { 2 * jobs + 6 }

    private func malformed(_ line: ArraySlice<UInt8>) -> WorkerError {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return WorkerError(.internalError, "a worker for \(name) wrote '\(text)', which is not in the worker protocol")
    }
}
#endif
