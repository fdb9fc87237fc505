import GraphFuzzEngine

/// Replays a corpus case in worker processes, for `crash` and `hang` cases that would take the
/// replaying process down with them: a worker that dies or runs out of time is the case's failure.
struct WorkerReplay {
    var executable: String
    /// Seconds before a replay is killed and counted as a hang.
    var timeout = 10.0

    func replay(_ corpusCase: CorpusCase, file: String, targets: [Target]) throws(CorpusError) -> ReplayResult {
        try Corpus.replay(corpusCase, file: file, targets: targets) { target, mutant in
            let client = WorkerClient(executable: executable,
                                      arguments: WorkerArguments(target: target.name, mutant: mutant, steps: nil, seed: corpusCase.seed))
            do throws(WorkerError) {
                switch try client.run("x \(file)", timeout: timeout).run {
                case .finished(let outcome): return .success(outcome)
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
