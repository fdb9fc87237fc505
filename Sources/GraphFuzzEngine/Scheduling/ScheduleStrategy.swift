/// How the scheduler picks the next job among those that can run. Every decision is a choice from the
/// case's `Draw`, and choice 0 always means "the oldest runnable job" (FIFO), so an all-zero sequence
/// runs jobs in the order they were enqueued and shrinking moves a schedule towards that order.
public enum ScheduleStrategy: Sendable, Hashable, CustomStringConvertible {
    /// At every step with two or more runnable jobs, pick one uniformly.
    case randomWalk
    /// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010):
    /// each task (and each default actor, whose queue runs as one agent) gets a random priority when first
    /// seen, the highest-priority agent's oldest runnable job runs, and at `depth − 1` random steps in
    /// `1...expectedSteps` the agent about to run drops below every other. A bug of depth `d` among `n` tasks and `k` steps is found with probability at least
    /// `1 / (n · k^(d−1))` per run. Priorities are drawn as numbers where 0 is the lowest initial priority
    /// and equal priorities run FIFO; a change point drawn as 0 is unused.
    case pct(depth: Int, expectedSteps: Int)
    /// Each run draws one of `members` (index 0, the first, on all-zero choices) and schedules with it: for
    /// bugs no single strategy finds fastest. Members may not be portfolios themselves.
    indirect case portfolio([ScheduleStrategy])

    /// The default of `Scheduler.Options` and `ConcurrentSteps`: a random walk and PCT (depth 3, 16 steps), one drawn
    /// per run. No single strategy found every bug of the benchmark (docs/scheduling.md, "Strategy × bug"): a random
    /// walk finds a job that must overtake another a few jobs apart soonest, PCT an ordering that sits deep in a
    /// run; the portfolio found each for every seed.
    public static let standard: ScheduleStrategy = .portfolio([.randomWalk, .pct(depth: 3, expectedSteps: 16)])

    public var description: String {
        switch self {
        case .randomWalk: "random walk"
        case .pct(let depth, let steps): "PCT (depth \(depth), \(steps) steps)"
        case .portfolio(let members): "portfolio of " + members.map(\.description).joined(separator: ", ")
        }
    }
}

/// The picking state of one run.
struct SchedulePicker {
    /// The strategy the run schedules with (a portfolio's drawn member).
    private let strategy: ScheduleStrategy
    /// Picks read back from a trace (the index at each step with a choice, in order), instead of the
    /// strategy's draws; a step past the last runs the oldest job.
    private let replaying: [Int]?
    private var replayed = 0
    /// The first replayed pick that was outside the runnable jobs (it ran the oldest instead).
    private(set) var invalidPick: (step: Int, pick: Int, choices: Int)?
    /// PCT: steps at which the owner about to run is demoted; the i-th gets priority i + 1 (0 = unused).
    private var changePoints: [Int] = []
    /// PCT: the priority of each owner (a task, or an actor whose queue runs as one agent) seen so far, in order of
    /// first sight; looked up by a search (a run has a few owners), never iterated for a decision.
    private var priorities: [(owner: Int, priority: Int)] = []
    private let priorityRange: UInt64 = 1 << 20

    init(strategy: ScheduleStrategy, draw: Draw, replaying: [Int]? = nil) {
        self.replaying = replaying
        guard replaying == nil else {
            self.strategy = strategy
            return
        }
        if case .portfolio(let members) = strategy {
            precondition(!members.isEmpty && !members.contains { if case .portfolio = $0 { true } else { false } },
                         "a portfolio needs one or more members, none of them a portfolio")
            self.strategy = members[Int(draw.chooseUniform(upTo: UInt64(members.count - 1)))]
        } else {
            self.strategy = strategy
        }
        if case .pct(let depth, let expectedSteps) = self.strategy {
            precondition(depth >= 1 && expectedSteps >= 1, "PCT needs depth ≥ 1 and expectedSteps ≥ 1")
            changePoints = (0..<(depth - 1)).map { _ in Int(draw.chooseUniform(upTo: UInt64(expectedSteps))) }
        }
    }

    /// The index (in enqueue order) of the job to run at `step` (1-based).
    mutating func pick(from runnable: [HeldJob], step: Int, draw: Draw) -> Int {
        if let replaying {
            guard runnable.count > 1 else { return 0 }
            defer { replayed += 1 }
            guard replayed < replaying.count else { return 0 }
            let pick = replaying[replayed]
            guard pick >= 0 && pick < runnable.count else {
                if invalidPick == nil { invalidPick = (step, pick, runnable.count) }
                return 0
            }
            return pick
        }
        switch strategy {
        case .randomWalk:
            return runnable.count == 1 ? 0 : Int(draw.chooseUniform(upTo: UInt64(runnable.count - 1)))
        case .portfolio:
            preconditionFailure("a portfolio schedules with its drawn member")
        case .pct(let depth, _):
            for job in runnable where priority(of: job.owner) == nil {
                priorities.append((job.owner, depth + Int(draw.chooseUniform(upTo: priorityRange))))
            }
            var best = highest(in: runnable)
            for (index, point) in changePoints.enumerated() where point == step {
                let owner = runnable[best].owner
                priorities[priorities.firstIndex { $0.owner == owner }!].priority = index + 1
                best = highest(in: runnable)
            }
            return best
        }
    }

    /// The oldest job of the highest-priority owner (`runnable` is in enqueue order).
    private func highest(in runnable: [HeldJob]) -> Int {
        var best = 0
        for index in runnable.indices.dropFirst() where priority(of: runnable[index].owner) ?? 0 > priority(of: runnable[best].owner) ?? 0 {
            best = index
        }
        return best
    }

    /// PCT: the priority `owner` has, nil before it was first seen.
    private func priority(of owner: Int) -> Int? {
        priorities.first { $0.owner == owner }?.priority
    }
}
