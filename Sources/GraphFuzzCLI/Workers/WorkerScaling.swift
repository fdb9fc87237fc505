import GraphFuzzEngine

/// How a target's search scales over worker processes: steps per second of the same seed's
/// search (production code, so nothing to shrink) with 1, 2, … jobs, each run for a fixed time.
/// `graph-fuzz bench` reports it; the figures include the workers' start-up and the pipes.
struct WorkerScaling {
    struct Row: Equatable {
        var jobs: Int
        var cases: Int
        var steps: Int
        var seconds: Double
        var stepsPerSecond: Double { seconds > 0 ? Double(steps) / seconds : 0 }
    }

    var executable: String
    /// Seconds each measurement searches for.
    var seconds: Double

    func measure(_ target: Target, jobs: [Int]) throws(WorkerError) -> [Row] {
        var rows: [Row] = []
        for count in jobs {
            // Enough cases that the time limit, not the case count, ends the search.
            let options = SearchOptions(seed: 1, runs: 20_000_000, timeLimit: seconds)
            let executor = WorkerExecutor(target: target, mutant: nil, seed: options.seed, maxSteps: target.defaultSteps, workers: count,
                                          caseTimeout: 10, executable: executable)
            let result: LoopResult
            do { result = try SearchLoop(options: options).run(executor) } catch { throw WorkerError.from(error) }
            rows.append(Row(jobs: count, cases: result.cases, steps: result.steps, seconds: result.seconds))
        }
        return rows
    }
}
