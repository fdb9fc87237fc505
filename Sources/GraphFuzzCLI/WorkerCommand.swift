#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GraphFuzzEngine
import GraphFuzzIsolation

/// `graph-fuzz worker --target NAME [--mutant NAME] --steps N [--scratch DIR]` (hidden): a worker process of a
/// run, serving the worker protocol (`WorkerServer`) for one target's machine until its input ends. The run's seed
/// comes with each request, its steps per case with the launch (`launch`).
struct WorkerCommand: Command {
    static let name = "worker"
    static let usage = "worker --target NAME [--mutant NAME] --steps N [--scratch DIR] [--shrink ATTEMPTS,STALL,SECONDS|-]"
    static let help = "a worker process of a run (graph-fuzz starts it)"
    static let listed = false

    var target: String
    var mutant: String?
    var steps: Int
    /// The folder its cases keep their files in (its parent made it for this worker and removes it).
    var scratchFolder: String?
    /// The run's shrink budget, with which the worker shrinks the first failure of each signature a batch meets
    /// (`WorkerServer.batchShrink`).
    var shrink: ShrinkBudget?

    init(_ flags: inout Flags) throws(UsageError) {
        guard let target = try flags.string("--target") else { throw UsageError("worker: --target is required") }
        self.target = target
        mutant = try flags.string("--mutant")
        guard let steps = try flags.int("--steps", in: FlagLimits.steps) else { throw UsageError("worker: --steps is required") }
        self.steps = steps
        scratchFolder = try flags.string("--scratch")
        if let text = try flags.string("--shrink") {
            guard let budget = ShrinkBudget(line: Substring(text)) else {
                throw UsageError("worker: --shrink: '\(text)' is not ATTEMPTS,STALL,SECONDS (positive numbers; SECONDS may be -)")
            }
            shrink = budget
        }
    }

    func run(_ context: CommandContext) -> Int32 {
        guard let target = context.registry.target(named: target) else {
            writeUnbuffered(to: STDERR_FILENO, "graph-fuzz worker: unknown target '\(self.target)'\n")
            return 2
        }
        if let mutant, target.mutant(named: mutant) == nil {
            writeUnbuffered(to: STDERR_FILENO, "graph-fuzz worker: target '\(target.name)' has no mutant '\(mutant)'\n")
            return 2
        }
        return WorkerServer(machine: target.machine(mutant: mutant, scratchFolder: scratchFolder), maxSteps: steps,
                            scratchFolder: scratchFolder, batchShrink: shrink).serve()
    }

    /// The executor a campaign runs each search's cases through: `jobs` worker processes (nil: one per core, as the
    /// budget allows) started from `executable`. `budgetNote` is told why fewer workers run than asked for.
    static func executor(_ executable: String, entry: (@Sendable ([String]) -> Int32)?, jobs: Int?, caseTimeout: Double,
                         budgetNote: @escaping (String) -> Void = { _ in },
                         note: @escaping (String) -> Void = { _ in }) -> (Target, SearchPlan) throws(RunError) -> any CaseExecutor {
        { target, plan throws(RunError) in
            let budget: WorkerBudget
            do throws(WorkerError) { budget = try WorkerBudget.current(requested: jobs) } catch { throw error.runError }
            if let message = budget.note { budgetNote(message) }
            // Workers forked from this process start with the machine's shared work done.
            if entry != nil { target.machine(mutant: plan.mutant).prepare() }
            return ProcessExecutor(name: target.name, workers: budget.jobs, caseTimeout: caseTimeout,
                                   launch: launch(executable, entry: entry, plan: plan), note: note)
        }
    }

    /// How a search starts `executable` as a worker serving the plan's target (production code, or its mutant) with its
    /// steps per case, in the scratch folder its parent made for it.
    /// Its workers shrink the first failure of each signature a batch meets where it ran, with the plan's budget.
    static func launch(_ executable: String, entry: (@Sendable ([String]) -> Int32)?, plan: SearchPlan) -> WorkerLaunch {
        launch(executable, entry: entry, target: plan.target, mutant: plan.mutant, steps: plan.maxSteps, shrink: plan.options.shrinkBudget)
    }

    /// How `executable` is started as a worker serving `target` (production code, or `mutant`) with `steps` per case,
    /// shrinking in its batches with `shrink` when given; `entry` is what the executable runs then, when it is this
    /// process's own (a worker may then be this process forked).
    static func launch(_ executable: String, entry: (@Sendable ([String]) -> Int32)?, target: String, mutant: String?, steps: Int,
                       shrink: ShrinkBudget? = nil) -> WorkerLaunch {
        WorkerLaunch(executable: executable, arguments: { scratchFolder in
            var line = [name, "--target", target]
            if let mutant { line += ["--mutant", mutant] }
            if let shrink { line += ["--shrink", shrink.line] }
            return line + ["--steps", String(steps), "--scratch", scratchFolder]
        }, entry: entry)
    }
}
