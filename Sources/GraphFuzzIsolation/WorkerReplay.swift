#if !GRAPHFUZZ_NO_PROCESSES
import GraphFuzzEngine

/// Replays a corpus case in worker processes, for `crash` and `hang` cases that would take the
/// replaying process down with them: a worker that dies or runs out of time is the case's failure.
package struct WorkerReplay {
    /// How to start a worker serving a target's machine (for a mutant, or production code: nil).
    package var launch: (Target, _ mutant: String?) -> WorkerLaunch
    /// Seconds before a replay is killed and counted as a hang.
    package var timeout: Double

    package init(timeout: Double, launch: @escaping (Target, _ mutant: String?) -> WorkerLaunch) {
        self.timeout = timeout
        self.launch = launch
    }

    package func replay(_ corpusCase: CorpusCase, file: String, targets: [Target]) throws(CorpusError) -> ReplayResult {
        try Corpus.replay(corpusCase, file: file, targets: targets) { target, mutant in
            let client = WorkerClient(launch(target, mutant))
            do throws(WorkerError) {
                switch try client.run(.corpusFile(file), timeout: timeout).run {
                case .finished(let result): return .success(result.outcome)
                case .unreadable(let error): return .failure(error)
                case .died(let termination, let trapMessage): return .success(.fail(WorkerFailure.crash(termination, trapMessage: trapMessage)))
                case .timedOut(let seconds): return .success(.fail(WorkerFailure.hang(seconds: seconds)))
                }
            } catch {
                return .failure(TraceReplayError(step: nil, message: "cannot replay in a worker: \(error.message)"))
            }
        }
    }
}
#endif
