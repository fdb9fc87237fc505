#if !GRAPHFUZZ_NO_PROCESSES
import GraphFuzzEngine

/// How a target's search scales over worker processes: steps per second of the same seed's
/// search (production code, so nothing to shrink) with 1, 2, … jobs, each run for a fixed time.
/// `graph-fuzz bench` reports it; the figures include the workers' start-up and the pipes.
package struct WorkerScaling {
    package struct Row: Equatable {
        package var jobs: Int
        package var cases: Int
        package var steps: Int
        package var seconds: Double
        package var stepsPerSecond: Double { seconds > 0 ? Double(steps) / seconds : 0 }
    }

    /// How to start a worker serving the target's production code.
    package var launch: WorkerLaunch
    /// Seconds each measurement searches for.
    package var seconds: Double

    package init(seconds: Double, launch: WorkerLaunch) {
        self.seconds = seconds
        self.launch = launch
    }

    /// Searches `target` (`Campaign`) for `seconds` with each count of `jobs`.
    package func measure(_ target: Target, jobs: [Int]) throws(RunError) -> [Row] {
        var rows: [Row] = []
        for count in jobs {
            // Enough cases that the time limit, not the case count, ends the search.
            let options = SearchOptions(seed: 1, runs: 20_000_000, timeLimit: seconds)
            let campaign = Campaign(selection: [(target, nil)], options: options, executor: { target, _ in
                ProcessExecutor(name: target.name, workers: count, caseTimeout: 10, launch: launch)
            })
            guard let run = try campaign.run({ _ in }).first else { continue }
            rows.append(Row(jobs: count, cases: run.cases, steps: run.steps, seconds: run.seconds))
        }
        return rows
    }
}
#endif
