import Foundation
import GraphFuzzEngine
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process isolation for `GraphFuzzTest.check(…, isolation: .process)`: the test binary runs
/// again, filtered to the running test, with `GRAPHFUZZ_ISOLATED_CHECK` naming the check. In that
/// child the same `check` call does not search: it serves requests on standard input (the lines
/// of `IsolatedChild.serve`) and writes its answers on standard output, each line prefixed with
/// `IsolationLine.marker` (the rest of the output, Swift Testing's own, is ignored). A trap kills
/// the child, not the test run: the parent sees its output end after the case it announced, runs
/// that case again in a fresh child, and reports a `crash` only when it dies again of the same
/// signal; the shrink then replays every candidate in a child.
enum IsolationLine {
    static let environment = "GRAPHFUZZ_ISOLATED_CHECK"
    static let marker = "\u{1}graph-fuzz "

    /// The value naming one check: the target and the seed.
    static func key(target: String, seed: UInt64) -> String { "\(target) \(seed)" }

    /// Writes one answer line unbuffered, so a line written before a trap is never lost.
    static func emit(_ line: String) { writeUnbuffered(marker + line + "\n") }
}

/// The child side: a test process started to serve one check's cases.
struct IsolatedChild {
    /// The child for the check of `target` with `seed`, when this process was started for it.
    static func current(target: String, seed: UInt64) -> IsolatedChild? {
        guard ProcessInfo.processInfo.environment[IsolationLine.environment] == IsolationLine.key(target: target, seed: seed) else { return nil }
        return IsolatedChild()
    }

    /// Serves requests until standard input ends, then ends the process (the test never goes on
    /// in a child):
    /// - `b START STRIDE COUNT`: run those cases; `s INDEX` before each, `f INDEX OUTCOME` for a
    ///   failure or a harness fault, `d CASES REJECTED STEPS` at the end;
    /// - `w INDEX` (a case) or `r CHOICES…` (a shrink candidate): `k STEP` before each step runs,
    ///   then `o OUTCOME`.
    ///
    /// Each request runs in a process forked from this one, so a trap ends only that fork: this
    /// child then writes `x SIGNAL` and serves the next request, and the test binary is started
    /// once per check, not once per crash.
    func serve(_ machine: AnyMachine, maxSteps: Int) -> Never {
        while let line = readLine() {
            let pid = fork()
            if pid == 0 {
                answer(line, machine, maxSteps: maxSteps)
                _exit(0)
            }
            guard pid > 0 else {
                IsolationLine.emit("x 0")
                continue
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            if signal != 0 && signal != 0x7f { IsolationLine.emit("x \(signal)") }
        }
        exit(0)
    }

    /// Answers one request (in a forked process).
    private func answer(_ line: String, _ machine: AnyMachine, maxSteps: Int) {
        let fields = line.split(separator: " ")
        switch fields.first {
        case "b":
            guard fields.count == 4, let start = Int(fields[1]), let stride = Int(fields[2]), let count = Int(fields[3]) else { return }
            var rejected = 0, steps = 0
            for index in CaseChunk(start: start, stride: stride, count: count).indices {
                IsolationLine.emit("s \(index)")
                let (outcome, ran) = machine.run(Draw(seed: SplitMix64.caseSeed(run: seedOfRun, case: index)), maxSteps)
                steps += ran
                switch outcome {
                case .pass: break
                case .rejected: rejected += 1
                case .fail, .harnessFault: IsolationLine.emit("f \(index) \(OutcomeLine.encode(outcome))")
                }
            }
            IsolationLine.emit("d \(count) \(rejected) \(steps)")
        case "w", "r":
            let draw: Draw
            if fields.first == "w" {
                guard fields.count == 2, let index = Int(fields[1]) else { return }
                draw = Draw(seed: SplitMix64.caseSeed(run: seedOfRun, case: index))
            } else {
                draw = Draw(replaying: ChoiceSequence(parsing: line.dropFirst()) ?? ChoiceSequence([]))
            }
            let outcome = machine.run(draw, maxSteps, RunOptions(willRunStep: { step in IsolationLine.emit("k \(step)") })).outcome
            IsolationLine.emit("o \(OutcomeLine.encode(outcome))")
        default: return
        }
    }

    private var seedOfRun: UInt64 {
        let value = ProcessInfo.processInfo.environment[IsolationLine.environment] ?? ""
        return value.split(separator: " ").last.flatMap { UInt64($0) } ?? 0
    }
}
