#if !GRAPHFUZZ_NO_PROCESSES
import Foundation
import GraphFuzzEngine

/// How one request to a worker ended.
enum WorkerRun: Equatable {
    /// The worker finished the case (`o …`).
    case finished(Outcome)
    /// The trace could not be applied (`e …`; corpus replay only).
    case unreadable(TraceReplayError)
    /// The worker died while running it.
    case died(WorkerTermination, trapMessage: String)
    /// It did not finish within the timeout; the worker was killed.
    case timedOut(seconds: Double)
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

/// One worker process, started on first use and again after it dies, that runs one request at a
/// time with a timeout: shrink candidates, the step at which a case crashes, corpus replays.
final class WorkerClient {
    let launch: WorkerLaunch
    private var process: WorkerProcess?

    init(_ launch: WorkerLaunch) {
        self.launch = launch
    }

    /// Sends `request` and waits for its answer or the worker's end, at most `timeout` seconds —
    /// or, with `perStep`, at most `timeout` seconds for each step the worker announces (`k STEP`),
    /// so a long case that keeps finishing steps is slow, never a hang, and only a step that
    /// itself runs longer than `timeout` times out. `lastStep` is the last step the worker
    /// announced, nil if none.
    func run(_ request: WorkerRequest, timeout: Double, perStep: Bool = false) throws(WorkerError) -> (run: WorkerRun, lastStep: Int?) {
        let worker: WorkerProcess
        if let process { worker = process } else {
            worker = try WorkerProcess(launch)
            process = worker
        }
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
        var lastStep: Int?
        guard worker.send(request.line) else { return (try end(worker), lastStep) }
        while true {
            while let line = worker.nextLine() {
                if line.hasPrefix("k "), let step = Int(line.dropFirst(2)) {
                    lastStep = step
                    if perStep { deadline = clock.now.advanced(by: .milliseconds(Int64(timeout * 1000))) }
                } else if line.hasPrefix("o "), let outcome = OutcomeLine.decodeOutcome(line.dropFirst(2)) {
                    return (.finished(outcome), lastStep)
                } else if line.hasPrefix("e ") {
                    let fields = line.dropFirst(2).split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                    let message = fields.count == 2 ? OutcomeLine.unescape(fields[1]) : String(line)
                    return (.unreadable(TraceReplayError(step: Int(fields[0]), message: message)), lastStep)
                } else {
                    throw WorkerError(message: "the worker answered '\(line)' to '\(request.line.prefix(40))'")
                }
            }
            let left = (deadline - clock.now).seconds
            guard left > 0, worker.waitReadable(timeout: left) else {
                _ = worker.kill()
                process = nil
                return (.timedOut(seconds: timeout), lastStep)
            }
            if !worker.fill() { return (try end(worker), lastStep) }
        }
    }

    /// Ends the worker, if one runs (the next request starts a fresh one).
    func stop() { process = nil }

    private func end(_ worker: WorkerProcess) throws(WorkerError) -> WorkerRun {
        let termination = worker.wait()
        process = nil
        if let fault = worker.harnessFault() { throw WorkerError.harness(fault) }
        return .died(termination, trapMessage: worker.trapMessage())
    }
}
#endif
