import Foundation
import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden `graph-fuzz worker` subcommand's options: which machine to run and how.
package struct WorkerArguments: Equatable, Sendable {
    package var target: String
    package var mutant: String?
    package var steps: Int?
    package var seed: UInt64
    /// The folder the worker's cases keep their files in (its parent makes it for this worker and
    /// removes it); nil: the machine's default place.
    package var scratchFolder: String?

    /// Parses `--target NAME [--mutant NAME] [--steps N] [--seed N] [--scratch DIR]`.
    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> WorkerArguments {
        var rest = arguments
        var result = WorkerArguments(target: "", mutant: nil, steps: nil, seed: 0, scratchFolder: nil)
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError("worker: \(flag) needs a value") }
            switch flag {
            case "--target": result.target = value
            case "--mutant": result.mutant = value
            case "--scratch": result.scratchFolder = value
            case "--steps":
                result.steps = try ArgumentParser.positiveInt("worker: --steps", value, within: FlagLimits.steps)
            case "--seed":
                result.seed = try ArgumentParser.seed("worker: --seed", value)
            default: throw UsageError("worker: unknown flag '\(flag)'")
            }
        }
        guard !result.target.isEmpty else { throw UsageError("worker: --target is required") }
        return result
    }

    /// The command-line arguments that start a worker with these options.
    var commandLine: [String] {
        var line = ["worker", "--target", target, "--seed", String(seed)]
        if let mutant { line += ["--mutant", mutant] }
        if let steps { line += ["--steps", String(steps)] }
        if let scratchFolder { line += ["--scratch", scratchFolder] }
        return line
    }
}

/// `graph-fuzz worker …`: runs requests from its parent (see `WorkerProtocol`) until standard
/// input ends. Everything it reports goes out in single unbuffered writes, so a line written
/// before a crash is never lost.
struct WorkerCommand {
    var arguments: WorkerArguments
    var registry: Registry

    func execute() -> Int32 {
        guard let target = registry.target(named: arguments.target) else {
            writeUnbuffered(to: STDERR_FILENO, "graph-fuzz worker: unknown target '\(arguments.target)'\n")
            return 2
        }
        if let mutant = arguments.mutant, target.mutant(named: mutant) == nil {
            writeUnbuffered(to: STDERR_FILENO, "graph-fuzz worker: target '\(target.name)' has no mutant '\(mutant)'\n")
            return 2
        }
        // Ctrl-C reaches the whole process group: the parent stops its workers itself, so a
        // worker never dies of SIGINT (it would look like a crash). SIGTERM (the parent stopping
        // it, or anyone else) ends it between cases with its scratch folder removed; a worker whose
        // parent is gone stops so too, even when stuck in a hang where it never sees its input close.
        var ignore = sigaction()
        #if canImport(Glibc)
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        #else
        ignore.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        sigaction(SIGINT, &ignore, nil)
        // A worker whose parent is gone must not die of SIGPIPE on its next announcement: it stops as
        // told (`WorkerShutdown`), removing its scratch folder; the failed writes are dropped.
        signal(SIGPIPE, SIG_IGN)
        Interruption.install()  // SIGTERM only: SIGINT is ignored, and stays so
        let shutdown = WorkerShutdown(scratchFolder: arguments.scratchFolder)
        shutdown.watch()
        let machine = target.machine(mutant: arguments.mutant, scratchFolder: arguments.scratchFolder)
        let maxSteps = arguments.steps ?? target.defaultSteps
        var announcer = Announcer()
        defer { shutdown.removeScratchFolder() }
        while let line = readLine() {
            shutdown.endIfRequested()
            let fields = line.split(separator: " ")
            switch fields.first {
            case "b":
                guard fields.count == 4, let start = Int(fields[1]), let stride = Int(fields[2]), let count = Int(fields[3]) else {
                    return malformed(line)
                }
                runBatch(CaseChunk(start: start, stride: stride, count: count), machine, maxSteps: maxSteps, &announcer, shutdown)
            case "r", "w":
                let draw: Draw
                if fields.first == "w" {
                    guard fields.count == 2, let index = Int(fields[1]) else { return malformed(line) }
                    draw = Draw(seed: SplitMix64.caseSeed(run: arguments.seed, case: index))
                } else {
                    guard let sequence = ChoiceSequence(parsing: line.dropFirst()) else { return malformed(line) }
                    draw = Draw(replaying: sequence)
                }
                let outcome = machine.run(draw, maxSteps, RunOptions(willRunStep: { step in writeUnbuffered("k \(step)\n") })).outcome
                writeUnbuffered("o \(WorkerProtocol.encode(outcome))\n")
            case "x":
                let file = String(line.dropFirst(2))
                do {
                    let corpusCase = try Corpus.read(file)
                    switch machine.replay(corpusCase.config, corpusCase.steps) {
                    case .success(let record): writeUnbuffered("o \(WorkerProtocol.encode(record.outcome))\n")
                    case .failure(let error): writeUnbuffered("e \(error.step.map(String.init) ?? "-")\t\(WorkerProtocol.escape(error.message))\n")
                    }
                } catch {
                    writeUnbuffered("e -\t\(WorkerProtocol.escape(error.description))\n")
                }
            default:
                return malformed(line)
            }
        }
        // A read cut short by SIGTERM ends the input too.
        shutdown.endIfRequested()
        return 0
    }

    /// Runs a batch through the chunk runner (what an in-process search runs), announcing each case
    /// before it runs and each failing case as soon as it ended; a chunk ends at a harness fault, so
    /// the batch goes on with the cases after it, as the parent expects every case of it run.
    private func runBatch(_ batch: CaseChunk, _ machine: AnyMachine, maxSteps: Int, _ announcer: inout Announcer, _ shutdown: WorkerShutdown) {
        var steps = 0, rejected = 0
        var coverage = Coverage()
        var pending: CaseChunk? = batch
        while let chunk = pending {
            var written = 0
            let report = machine.runChunk(chunk, arguments.seed, maxSteps, false) { index, soFar in
                while written < soFar.failures.count {
                    writeFailure(soFar.failures[written])
                    written += 1
                }
                shutdown.endIfRequested()
                announcer.announce("s", index, steps + soFar.steps, rejected + soFar.rejected)
            }
            report.failures[written...].forEach(writeFailure)
            steps += report.steps
            rejected += report.rejected
            coverage.merge(report.coverage)
            pending = nil
            if let fault = report.harnessFault {
                writeUnbuffered("f \(fault.caseIndex) \(WorkerProtocol.encode(.harnessFault(fault.fault)))\n")
                pending = chunk.remaining(after: fault.caseIndex)
            }
        }
        writeUnbuffered("c \(coverage.line)\n")
        announcer.announce("d", steps, rejected)
    }

    private func writeFailure(_ failure: CaseFailure) {
        writeUnbuffered("f \(failure.index) \(WorkerProtocol.encode(.fail(failure.failure)))\n")
    }

    private func malformed(_ line: String) -> Int32 {
        writeUnbuffered(to: STDERR_FILENO, "graph-fuzz worker: malformed request '\(line)'\n")
        return 3
    }
}
