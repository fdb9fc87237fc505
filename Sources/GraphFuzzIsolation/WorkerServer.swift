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

/// The worker side of process isolation: serves the requests of the line protocol (`WorkerRequest`) for one
/// machine until its input ends. `graph-fuzz worker` and a test binary started again for one check both end here.
/// Every answer goes out in single unbuffered writes, so a line written before a crash is never lost.
package struct WorkerServer {
    package var machine: AnyMachine
    package var maxSteps: Int
    /// The folder the machine's cases keep their files in (the parent made it for this worker and removes it; the
    /// worker removes it too when told to stop), nil when it was given none.
    package var scratchFolder: String?
    /// Where answers are written (`WorkerLaunch.answers`).
    package var answers: Int32
    /// The run's shrink budget, when the worker shrinks in a batch the first failure of each signature it meets
    /// (`runBatch`); nil: failures are shrunk only when asked (`z`). Set in the environment, `noBatchShrinkVariable`
    /// turns it off: its parent starts workers so once a shrink in a batch took one down.
    package var batchShrink: ShrinkBudget?
    /// The environment variable that keeps a worker from shrinking in its batches.
    package static let noBatchShrinkVariable = "GRAPHFUZZ_WORKER_NO_BATCH_SHRINK"

    package init(machine: AnyMachine, maxSteps: Int, scratchFolder: String?, answers: Int32 = STDOUT_FILENO, batchShrink: ShrinkBudget? = nil) {
        self.machine = machine
        self.maxSteps = maxSteps
        self.scratchFolder = scratchFolder
        self.answers = answers
        self.batchShrink = getenv(WorkerServer.noBatchShrinkVariable) == nil ? batchShrink : nil
    }

    /// Serves requests until standard input ends: 0, or 3 after a request that is not in the protocol.
    package func serve() -> Int32 {
        // Ctrl-C reaches the whole process group: the parent stops its workers itself, so a worker never dies of
        // SIGINT (it would look like a crash). SIGTERM (the parent stopping it, or anyone else) ends it between
        // cases with its scratch folder removed; a worker whose parent is gone stops so too, even when stuck in a
        // hang where it never sees its input close. A worker whose parent is gone must not die of SIGPIPE on its
        // next answer either: the failed writes are dropped.
        Interruption.unblock()
        var ignore = sigaction()
        #if canImport(Glibc)
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        #else
        ignore.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        sigaction(SIGINT, &ignore, nil)
        signal(SIGPIPE, SIG_IGN)
        Interruption.install()  // SIGTERM only: SIGINT is ignored, and stays so
        PhaseLog.note("serve")
        let shutdown = WorkerShutdown(scratchFolder: scratchFolder)
        shutdown.watch()
        defer { shutdown.removeScratchFolder() }
        var writer = AnswerWriter(descriptor: answers)
        var requests = RequestReader()
        var shrunk: Set<FailureSignature> = []
        while let line = requests.next() {
            shutdown.endIfRequested()
            guard let request = WorkerRequest(line: line) else {
                writeUnbuffered(to: STDERR_FILENO, "graph-fuzz worker: malformed request '\(line)'\n")
                return 3
            }
            switch request {
            case .batch(let seed, let chunk):
                runBatch(chunk, seed: seed, &writer, shutdown, shrunk: &shrunk)
            case .runCase(let seed, let index):
                run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), covers: true, writer)
            case .shrink(let seed, let index, let signature, let budget):
                shrink(case: index, seed: seed, signature: signature, budget: budget, writer)
            case .replay(let sequence):
                run(Draw(replaying: sequence), covers: false, describesFailures: false, writer)
            case .describe(let sequence, let stop):
                describe(sequence, stoppingAt: stop, writer)
            case .corpusFile(let file):
                do {
                    let corpusCase = try Corpus.read(file)
                    switch machine.replay(corpusCase.config, corpusCase.steps) {
                    case .success(let record): writer.line("o \(OutcomeLine.encode(record.outcome))")
                    case .failure(let error): writer.line("e \(error.step.map(String.init) ?? "-")\t\(OutcomeLine.escape(error.message))")
                    }
                } catch {
                    writer.line("e -\t\(OutcomeLine.escape(error.description))")
                }
            }
        }
        // A read cut short by SIGTERM ends the input too.
        shutdown.endIfRequested()
        return 0
    }

    /// Runs one case, announcing each step just before the system runs it with what the case consumed since the last
    /// announcement, then the rest of what it consumed, its coverage (when it `covers`) and its outcome (a mismatch
    /// written out unless it is a shrink candidate's: `describesFailures`).
    @discardableResult
    private func run(_ draw: Draw, covers: Bool, describesFailures: Bool = true, _ writer: AnswerWriter) -> CaseResult {
        var sent = ConsumedMark()
        let result = machine.run(draw, maxSteps, RunOptions(covers: covers, describesFailures: describesFailures, willRunStep: { step in
            writer.line("k \(step)\t" + ConsumedLine.encode(draw.consumedDelta(since: &sent)))
        }))
        writer.line("u \(result.steps)\t" + ConsumedLine.encode(draw.consumedDelta(since: &sent)))
        if covers { writer.line("c \(result.coverage.line)") }
        writer.line("o \(OutcomeLine.encode(result.outcome))")
        return result
    }

    /// Runs case `index` of the run `seed` as `w` does and, when it failed with `signature`, shrinks it here: each
    /// candidate runs in this process as `r` would run it (what the shrinker sees is what the parent would have
    /// read), so the shrink makes the same candidates and reaches the same case as one the parent drives, without a
    /// round trip per candidate. Writes heartbeats while it shrinks, `F OUTCOME` for the first candidate whose harness
    /// faulted (no candidate runs after it), then `z SHRINK`. SIGTERM ends the shrink before its next candidate, its
    /// best so far marked interrupted.
    private func shrink(case index: Int, seed: UInt64, signature: FailureSignature, budget: ShrinkBudget, _ writer: AnswerWriter) {
        let first = run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), covers: true, writer)
        guard first.failure?.signature == signature else { return }
        let (result, fault) = shrink(first, signature: signature, budget: budget, writer)
        if let fault { writer.line("F \(OutcomeLine.encode(fault))") }
        writer.line("z \(ShrinkLine.encode(result))")
    }

    /// Shrinks `first`, a run of a case failing with `signature`, here (the `z` request and `runBatch`): the shrink and
    /// the first candidate whose harness faulted. Writes `h` at a candidate's or a step's start once
    /// `ShrinkLine.heartbeat` seconds passed since the last.
    private func shrink(_ first: CaseResult, signature: FailureSignature, budget: ShrinkBudget,
                        _ writer: AnswerWriter) -> (ShrinkResult, Outcome?) {
        let clock = ContinuousClock()
        let heartbeat = Duration.milliseconds(Int64(ShrinkLine.heartbeat * 1000))
        var lastBeat = clock.now
        func beat() {
            let now = clock.now
            guard now - lastBeat >= heartbeat else { return }
            lastBeat = now
            writer.line("h")
        }
        var fault: Outcome?
        let options = RunOptions(covers: false, describesFailures: false, willRunStep: { _ in beat() })
        let shrinker = Shrinker(signature: signature, budget: budget, stopRequested: { Interruption.signal != nil }) { sequence in
            guard fault == nil else { return CaseResult(outcome: .rejected) }
            beat()
            let result = machine.run(Draw(replaying: sequence), maxSteps, options)
            guard result.outcome.harnessFault == nil else {
                fault = result.outcome
                return CaseResult(outcome: .rejected)
            }
            return result
        }
        return (shrinker.shrink(first.consumed.sequence, run: first), fault)
    }

    /// Shrinks and describes `failure`, case `index` of the run `seed`, where the batch runs it, when the worker has
    /// a batch shrink budget and shrank no failure of its signature yet: the case runs again as `w` runs it (what it
    /// consumed), is shrunk as `z` shrinks it, and the shrunk case runs recorded as `p` runs it. Writes `v INDEX`
    /// first (a death or a silence from here on is the shrink's, not the case's), then
    /// `g INDEX STEPS SECONDS<TAB>CONSUMED<TAB>SHRINK` (the case's steps, the seconds all this took, which are not
    /// search time, and all the case consumed, `ConsumedLine`; the shrink, `ShrinkLine`), the record (`RecordLines`)
    /// and `G OUTCOME`, the shrunk case's, before the batch's `f` line for the case; nothing when a candidate's
    /// harness faulted (the parent's own request then meets the fault again).
    private func shrinkInBatch(_ failure: Failure, case index: Int, seed: UInt64, _ writer: AnswerWriter,
                               shrunk: inout Set<FailureSignature>) {
        guard let budget = batchShrink, shrunk.insert(failure.signature).inserted else { return }
        writer.line("v \(index) \(OutcomeLine.encode(.fail(failure)))")
        PhaseLog.note("shrink-start \(index)")
        let clock = ContinuousClock()
        let start = clock.now
        let first = machine.run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), maxSteps, RunOptions(covers: true))
        guard first.failure?.signature == failure.signature else { return }
        let (result, fault) = shrink(first, signature: failure.signature, budget: budget, writer)
        guard fault == nil else { return }
        PhaseLog.note("shrink-end \(index) \(result.attempts)")
        let described = machine.run(Draw(replaying: result.sequence), maxSteps, .record)
        let consumed = ConsumedDelta(choices: first.consumed.choices, bounds: first.consumed.bounds, spansFrom: 0,
                                     spans: first.consumed.spans, openSpans: [])
        writer.line("g \(index) \(first.steps) \((clock.now - start).seconds)\t\(ConsumedLine.encode(consumed))\t\(ShrinkLine.encode(result))")
        for line in described.record.map(RecordLines.encode) ?? [] { writer.line(line) }
        writer.line("G \(OutcomeLine.encode(described.outcome))")
    }

    /// Runs a sequence recorded (up to step `stop`, which is predicted but not run on the system), announcing each step
    /// before the system runs it, then writes its record and outcome.
    private func describe(_ sequence: ChoiceSequence, stoppingAt stop: Int?, _ writer: AnswerWriter) {
        var options = stop.map { RunOptions.prefix(stoppingAt: $0) } ?? .record
        options.willRunStep = { step in writer.line("k \(step)") }
        let result = machine.run(Draw(replaying: sequence), maxSteps, options)
        for line in result.record.map(RecordLines.encode) ?? [] { writer.line(line) }
        writer.line("o \(OutcomeLine.encode(result.outcome))")
    }

    /// Runs a batch through the chunk runner (what an in-process search runs), announcing each case before it
    /// runs and each failing case as soon as it ended (shrunk first, when it is the first of its signature the worker
    /// meets and the worker has a batch shrink budget: `shrinkInBatch`); a chunk ends at a harness fault, so the batch
    /// goes on with the cases after it, as the parent expects every case of it run.
    private func runBatch(_ batch: CaseChunk, seed: UInt64, _ writer: inout AnswerWriter, _ shutdown: WorkerShutdown,
                          shrunk: inout Set<FailureSignature>) {
        PhaseLog.note("batch \(batch.start) \(batch.count)")
        var steps = 0, rejected = 0
        var coverage = Coverage()
        var pending: CaseChunk? = batch
        while let chunk = pending {
            var written = 0
            let report = machine.runChunk(chunk, seed, maxSteps, false) { index, soFar in
                while written < soFar.failures.count {
                    let failing = soFar.failures[written]
                    shrinkInBatch(failing.failure, case: failing.index, seed: seed, writer, shrunk: &shrunk)
                    writeFailure(failing, writer)
                    written += 1
                }
                shutdown.endIfRequested()
                PhaseLog.note("case \(index)")
                writer.announce("s", index)
            }
            for failing in report.failures[written...] {
                shrinkInBatch(failing.failure, case: failing.index, seed: seed, writer, shrunk: &shrunk)
                writeFailure(failing, writer)
            }
            steps += report.steps
            rejected += report.rejected
            coverage.merge(report.coverage)
            pending = nil
            if let fault = report.harnessFault {
                writer.line("f \(fault.caseIndex) \(OutcomeLine.encode(.harnessFault(fault.fault)))")
                pending = chunk.remaining(after: fault.caseIndex)
            }
        }
        writer.line("c \(coverage.line)")
        writer.announce("d", steps, rejected)
    }

    private func writeFailure(_ failure: CaseFailure, _ writer: AnswerWriter) {
        PhaseLog.note("failure \(failure.index) \(failure.failure.rule)")
        writer.line("f \(failure.index) \(OutcomeLine.encode(.fail(failure.failure)))")
    }
}
/// Reads the requests on standard input a line at a time. Swift's `readLine` is not used: it retries a read that a
/// signal cut short, and when the input ends after that (SIGTERM and the parent's closed socket together, as a
/// worker is stopped) it spins on the stale EINTR until the shutdown watcher ends the process half a second later.
private struct RequestReader {
    private var buffer: [UInt8] = []
    private var start = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// The next request line (without its newline); nil at the end of the input, or once a stop was asked for.
    mutating func next() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
            } else if count < 0 && errno == EINTR && Interruption.signal == nil {
                continue
            } else if count == 0 && !buffer.isEmpty {
                // A last line without its newline is a request too.
                defer { buffer = [] }
                return String(decoding: buffer, as: UTF8.self)
            } else {
                return nil
            }
        }
    }
}
#endif
