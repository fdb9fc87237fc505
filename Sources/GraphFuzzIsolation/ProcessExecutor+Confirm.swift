#if !GRAPHFUZZ_NO_PROCESSES
import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a case is suspected: its worker died, or it ran past the case timeout.
enum Suspicion: Equatable, CustomStringConvertible {
    case died(WorkerTermination, trapMessage: String)
    case timedOut

    var description: String {
        switch self {
        case .died(let termination, let trap): return trap.isEmpty ? termination.name : "\(termination.name) (\(trap))"
        case .timedOut: return "a case timed out"
        }
    }

    /// What happened to a worker that was shrinking, as a note says it.
    var whileShrinking: String {
        switch self {
        case .died: return "died of \(description)"
        case .timedOut: return "told nothing for longer than the case timeout"
        }
    }
}

/// What running a suspected case again in a fresh worker showed.
enum Verdict: Equatable {
    /// It crashed again with the same signature, or a step of it hung: a failure of the code under test.
    case reproduced(Failure)
    /// It ran to the end: the worker's death or the timeout was not the case's doing. The result holds its outcome,
    /// steps and coverage; `note` says what happened, for standard error.
    case ran(CaseResult, note: String)
}

extension ProcessExecutor {
    /// Runs before a worker death counts as a lost cause: a case whose fresh workers keep dying
    /// without reproducing the same trap is an infrastructure error.
    static let maxConfirmAttempts = 3

    /// Signals a trap in the code under test raises. Anything else (SIGKILL from the OOM killer
    /// or a CI runner, SIGTERM, an exit) comes from outside and never counts as a crash.
    static let trapSignals: Set<Int32> = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS]

    /// The longer timeout a suspected hang must exceed again, for one step alone: twice the case
    /// timeout, and at least five seconds, so a loaded machine never makes a hang (a step of a
    /// fresh worker, its start included, took over half a second at a load of 13 on 2 cores).
    /// A step that never returns exceeds any bound; a bound too tight reports a slow machine.
    var confirmStepTimeout: Double { Swift.max(2 * caseTimeout, 5) }

    /// Runs case `index` again in a fresh worker, with a timeout per step (`confirmStepTimeout`
    /// for each step the case takes), to learn whether the suspicion was the case's doing:
    /// - a worker that died is a `crash` only when a fresh one dies again of the same trap signal
    ///   and message; SIGKILL, SIGTERM or an exit never is;
    /// - a timed-out case is a `hang` only when one of its steps alone runs longer than
    ///   `confirmStepTimeout`; a case that keeps finishing steps is slow, not stuck, and runs to the end.
    /// Throws (exit 3) when fresh workers keep dying without reproducing anything.
    func confirm(case index: Int, seed: UInt64, _ suspicion: Suspicion, client: WorkerClient) throws(WorkerError) -> Verdict {
        var suspicion = suspicion
        var deaths: [String] = []
        if case .died(let termination, let trap) = suspicion { deaths.append(Self.describe(termination, trap)) }
        let clock = ContinuousClock()
        defer { client.stop() }  // no idle worker left between suspects
        while true {
            client.stop()
            let started = clock.now
            let answer = try client.run(.runCase(seed: seed, index: index), timeout: confirmStepTimeout, perStep: true)
            requests.confirms += 1
            switch answer.run {
            case .finished(let result):
                let seconds = Format.seconds((clock.now - started).seconds)
                let what: String
                switch suspicion {
                case .timedOut:
                    what = "case \(index) of \(name) ran longer than \(Format.seconds(caseTimeout)) but is slow, not stuck: "
                        + "run again, every step finished and the case ran to the end in \(seconds); not a hang "
                        + "(raise --case-timeout for fewer re-runs)"
                case .died:
                    what = "a worker died of \(deaths.joined(separator: ", then ")) running case \(index) of \(name); "
                        + "run again in a fresh worker the case ran to the end: not a failure of the code under test"
                }
                return .ran(result, note: what)
            case .unreadable(let error):
                throw WorkerError(.internalError, "a worker could not run case \(index) of \(name): \(error.message)")
            case .timedOut:
                // One step ran longer than the timeout by itself: stuck, whatever the case's length.
                return .reproduced(WorkerFailure.hang(seconds: caseTimeout))  // the signature names the case timeout
            case .died(let termination, let trap):
                let failure = WorkerFailure.crash(termination, trapMessage: trap)
                if case .died(let earlier, let earlierTrap) = suspicion, Self.isTrap(termination),
                   WorkerFailure.crash(earlier, trapMessage: earlierTrap).signature == failure.signature {
                    return .reproduced(failure)
                }
                deaths.append(Self.describe(termination, trap))
                if deaths.count >= Self.maxConfirmAttempts + (suspicion == .timedOut ? 0 : 1) {
                    throw WorkerError(.infrastructure, "workers keep dying without a reproducing case "
                        + "(case \(index) of \(name): \(deaths.joined(separator: ", "))); "
                        + "a worker killed from outside (the OOM killer, a CI runner's limits) is not a failure of the code under test")
                }
                suspicion = .died(termination, trapMessage: trap)
            }
        }
    }

    static func isTrap(_ termination: WorkerTermination) -> Bool {
        if case .signaled(let signal) = termination { return trapSignals.contains(signal) }
        return false
    }

    private static func describe(_ termination: WorkerTermination, _ trap: String) -> String {
        trap.isEmpty ? termination.name : "\(termination.name) (\(trap))"
    }
}
#endif
