#if !GRAPHFUZZ_NO_PROCESSES
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine

/// How one request to a worker ended.
enum WorkerRun: Equatable {
    /// The worker finished the case (`o …`): its outcome, and what it told of the case — the steps it ran, what it
    /// consumed and exercised, its record — as far as the request asks for them.
    case finished(CaseResult)
    /// The trace could not be applied (`e …`; corpus replay only).
    case unreadable(TraceReplayError)
    /// The worker died while running it.
    case died(WorkerTermination, trapMessage: String)
    /// It did not finish within the timeout; the worker was killed.
    case timedOut(seconds: Double)

    /// The worker died or was killed before it finished.
    var ended: Bool {
        switch self {
        case .died, .timedOut: return true
        case .finished, .unreadable: return false
        }
    }
}

/// The failure a dead or killed worker stands for. Its signature is the signal (or exit) plus the
/// first line of the trap message for a crash, and plain `hang/hang` for a hang.
enum WorkerFailure {
    static func crash(_ termination: WorkerTermination, trapMessage: String) -> Failure {
        let detail = trapMessage.isEmpty ? termination.name : "\(termination.name): \(trapMessage)"
        return Failure(rule: "crash", kind: .crash, message: "the worker died of \(detail)", detail: detail)
    }

    static func hang(seconds: Double) -> Failure {
        Failure(rule: "hang", kind: .hang, message: "the case did not finish within \(Format.seconds(seconds)) and was killed")
    }
}

/// What a worker answered to one request: how it ended, the last step it announced (nil if none) and what the case
/// consumed (all of it when it finished; up to its last step when it did not).
struct WorkerAnswer {
    var run: WorkerRun
    var lastStep: Int?
    var consumed = Consumed()
}

/// One worker process, started on first use and again after it dies, that runs one request at a
/// time with a timeout: shrink candidates, the step at which a case crashes, corpus replays.
///
/// Once a worker of the client has died (a crash or hang the shrink reproduces), a spare is kept started: the next
/// request after a death goes to a worker that has done its start-up while the one before ran candidates, and a
/// new spare starts at once. A shrink of a crash whose candidates crash again and again then waits for no start-up.
final class WorkerClient {
    let launch: WorkerLaunch
    private var process: WorkerProcess?
    /// A started worker that has not run a request yet (kept once a worker died).
    private var spare: WorkerProcess?
    /// Whether a worker of this client died or was killed: from then on a spare is kept.
    private var keepsSpare = false

    init(_ launch: WorkerLaunch) {
        self.launch = launch
    }

    /// Sends `request` and waits for its answer or the worker's end, at most `timeout` seconds — or, with `perStep`,
    /// at most `timeout` seconds for each step the worker announces (`k STEP`), so a long case that keeps finishing
    /// steps is slow, never a hang, and only a step that itself runs longer than `timeout` times out. The answer says
    /// the last step the worker announced (nil if none) and what the case consumed up to it, its open spans closed
    /// there: for a case that took the worker down, what a run stopping before that step's system call consumes.
    func run(_ request: WorkerRequest, timeout: Double, perStep: Bool = false) throws(WorkerError) -> WorkerAnswer {
        let worker: WorkerProcess
        if let process { worker = process } else if let spare {
            worker = spare
            process = worker
            self.spare = nil
        } else {
            worker = try WorkerProcess(launch)
            process = worker
        }
        // Started now, its start-up overlaps this request; a spare that cannot start is only a slower next request.
        if keepsSpare && spare == nil { spare = try? WorkerProcess(launch) }
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
        var answer = WorkerAnswer(run: .timedOut(seconds: timeout))
        var told = CaseResult(outcome: .pass)
        var open: [Int] = []
        func malformed(_ line: String) -> WorkerError {
            WorkerError(.internalError, "the worker answered '\(line.prefix(80))' to '\(request.line.prefix(40))'")
        }
        /// Adds the consumed fields of a `k` or `u` line after its first field.
        func consumed(_ line: String) throws(WorkerError) -> Int {
            let fields = line.dropFirst(2).fields(UInt8(ascii: "\t"))
            guard let first = fields.first, let number = Int(first) else { throw malformed(line) }
            guard fields.count > 1 else { return number }
            guard let delta = ConsumedLine.decode(fields.dropFirst()) else { throw malformed(line) }
            told.consumed.apply(delta)
            open = delta.openSpans
            return number
        }
        /// The answer of a case that did not finish: what it consumed up to its last step.
        func unfinished(_ run: WorkerRun) -> WorkerAnswer {
            told.consumed.close(open)
            answer.run = run
            answer.consumed = told.consumed
            return answer
        }
        guard worker.send(request.line) else { return unfinished(try end(worker)) }
        while true {
            while let line = worker.nextLine() {
                switch line.first {
                case "k":
                    answer.lastStep = try consumed(line)
                    if perStep { deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000))) }
                case "u":
                    told.steps = try consumed(line)
                    open = []
                case "c":
                    guard let coverage = Coverage(line: line.dropFirst(2)) else { throw malformed(line) }
                    told.coverage = coverage
                case "y":
                    var record = told.record ?? CaseRecord(config: TraceStep("config"), steps: [], expectations: [], outcome: .pass, swiftLines: [])
                    guard RecordLines.read(line.dropFirst(2), into: &record) else { throw malformed(line) }
                    told.record = record
                case "o":
                    guard let outcome = OutcomeLine.decodeOutcome(line.dropFirst(2)) else { throw malformed(line) }
                    told.outcome = outcome
                    told.record?.outcome = outcome
                    answer.run = .finished(told)
                    answer.consumed = told.consumed
                    return answer
                case "e":
                    let fields = line.dropFirst(2).split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                    let message = fields.count == 2 ? OutcomeLine.unescape(fields[1]) : String(line)
                    answer.run = .unreadable(TraceReplayError(step: Int(fields[0]), message: message))
                    return answer
                default:
                    throw malformed(line)
                }
            }
            let left = (deadline - clock.now).seconds
            guard left > 0, worker.waitReadable(timeout: left) else {
                _ = worker.kill()
                process = nil
                keepsSpare = true
                return unfinished(.timedOut(seconds: timeout))
            }
            if !worker.fill() { return unfinished(try end(worker)) }
        }
    }

    /// Reads the rest of a `z` request's answer after its first run's (`run`): the shrink the worker made and the
    /// first candidate whose harness faulted. Nil when the worker died, went `timeout` seconds without a heartbeat
    /// (`h`: a candidate that hangs, or a loaded machine), or had not answered `WorkerProcess.stopGrace` seconds after
    /// it was told to stop (`stopRequested`, asked at least every 50 ms): the caller then shrinks through single
    /// candidates, which tell a crash or a hang apart from the failure being shrunk. A worker told to stop ends after
    /// its answer, so the next request starts a fresh one.
    func shrinkAnswer(timeout: Double, stopRequested: () -> Bool) throws(WorkerError) -> (result: ShrinkResult, fault: Outcome?)? {
        guard let worker = process else { return nil }
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
        var fault: Outcome?
        var stopping = false
        func malformed(_ line: String) -> WorkerError { WorkerError(.internalError, "the worker answered '\(line.prefix(80))' to a shrink") }
        while true {
            while let line = worker.nextLine() {
                switch line.first {
                case "h":
                    if !stopping { deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000))) }
                case "F":
                    guard let outcome = OutcomeLine.decodeOutcome(line.dropFirst(2)) else { throw malformed(line) }
                    fault = outcome
                case "z":
                    guard let result = ShrinkLine.decode(line.dropFirst(2)) else { throw malformed(line) }
                    if stopping {
                        _ = worker.wait()
                        process = nil
                    }
                    return (result, fault)
                default:
                    throw malformed(line)
                }
            }
            if !stopping && stopRequested() {
                stopping = true
                worker.terminate()
                deadline = clock.now.advanced(by: .milliseconds(Int64(WorkerProcess.stopGrace * 1000)))
            }
            let left = (deadline - clock.now).seconds
            guard left > 0 else {
                _ = worker.kill()
                process = nil
                keepsSpare = true
                return nil
            }
            if worker.waitReadable(timeout: Swift.min(left, 0.05)) && !worker.fill() {
                _ = try end(worker)
                return nil
            }
        }
    }

    /// Ends the worker and its spare, if they run (the next request starts a fresh one).
    func stop() {
        process = nil
        spare = nil
    }

    private func end(_ worker: WorkerProcess) throws(WorkerError) -> WorkerRun {
        let termination = worker.wait()
        process = nil
        keepsSpare = true
        if let fault = worker.harnessFault() { throw WorkerError.harness(fault) }
        return .died(termination, trapMessage: worker.trapMessage())
    }
}
#endif
