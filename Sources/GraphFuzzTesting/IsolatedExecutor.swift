import Foundation
import GraphFuzzEngine
import Testing

/// A harness fault of process isolation (the test binary could not be started again, or a child
/// died before running a case): never reported as a failure of the code under test.
struct IsolationError: Error, CustomStringConvertible {
    var description: String
}

/// Runs a check's cases in child test processes (see `IsolationLine`), one at a time, starting
/// a fresh child whenever one died. A case during which a child died is a `crash` failure of
/// that case; the search loop runs it again before shrinking it, so a crash is only reported when
/// a fresh child dies of it too.
final class IsolatedExecutor: CaseExecutor {
    let key: String
    let machine: AnyMachine
    let maxSteps: Int
    /// The test binary and the arguments that run the current test alone.
    let executable: URL
    let arguments: [String]
    private var child: Child?
    /// The step each crashing sequence died at (to describe it without running that step here).
    private var stopSteps: [ChoiceSequence: Int] = [:]

    init(target: String, seed: UInt64, machine: AnyMachine, maxSteps: Int, test: Test?) throws(IsolationError) {
        guard let test else { throw IsolationError(description: "isolation: .process needs a running Swift Testing test") }
        guard let executable = Bundle.main.executableURL else {
            throw IsolationError(description: "isolation: .process cannot find the test binary")
        }
        self.key = IsolationLine.key(target: target, seed: seed)
        self.machine = machine
        self.maxSteps = maxSteps
        self.executable = executable
        self.arguments = IsolatedExecutor.arguments(for: test)
    }

    /// Arguments that make the test binary run `test` alone with Swift Testing.
    static func arguments(for test: Test) -> [String] {
        let function = test.name.split(separator: "(").first.map(String.init) ?? test.name
        let suite = test.id.nameComponents.dropLast().last.map { "\($0)/" } ?? ""
        let pattern = NSRegularExpression.escapedPattern(for: "\(suite)\(function)(")
        return ["--testing-library", "swift-testing", "--filter", pattern]
    }

    // MARK: CaseExecutor

    func run(_ chunk: CaseChunk, seed: UInt64, stopAtFirstFailure: Bool) throws -> ChunkReport {
        var report = ChunkReport()
        var rest: CaseChunk? = chunk
        while let part = rest {
            rest = nil
            let child = try running()
            child.send("b \(part.start) \(part.stride) \(part.count)")
            var current: Int?
            while true {
                guard let line = child.nextLine(), !line.hasPrefix("x ") else {
                    // The fork (or the child) died during case `current`.
                    let failure = try died(child, during: current)
                    let index = current!
                    report.cases += (index - part.start) / part.stride + 1
                    report.failures.append(CaseFailure(index: index, failure: failure))
                    rest = part.remaining(after: index)
                    break
                }
                let fields = line.split(separator: " ", maxSplits: 2)
                switch fields.first {
                case "s": current = fields.count > 1 ? Int(fields[1]) : nil
                case "f":
                    guard fields.count == 3, let index = Int(fields[1]), let outcome = OutcomeLine.decodeOutcome(fields[2]) else {
                        throw IsolationError(description: "a child test process wrote '\(line)'")
                    }
                    if let fault = outcome.harnessFault, report.harnessFault.map({ index < $0.caseIndex }) ?? true {
                        report.harnessFault = CaseHarnessFault(seed: seed, caseIndex: index, fault: fault)
                    }
                    if let failure = outcome.failure { report.failures.append(CaseFailure(index: index, failure: failure)) }
                case "d":
                    let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
                    guard numbers.count == 3 else { throw IsolationError(description: "a child test process wrote '\(line)'") }
                    report.cases += numbers[0]
                    report.rejected += numbers[1]
                    report.steps += numbers[2]
                default: continue
                }
                if fields.first == "d" { break }
            }
        }
        report.failures.sort { $0.index < $1.index }
        return report
    }

    func run(case index: Int, seed: UInt64) throws -> (outcome: Outcome, draw: Draw) {
        try watched("w \(index)", draw: Draw(seed: SplitMix64.caseSeed(run: seed, case: index)))
    }

    func replay(_ sequence: ChoiceSequence) throws -> (outcome: Outcome, draw: Draw) {
        try watched("r \(sequence)", draw: Draw(replaying: sequence))
    }

    func record(_ sequence: ChoiceSequence) -> CaseRecord? {
        guard let step = stopSteps[sequence] else { return machine.record(sequence, maxSteps) }
        var record = machine.recordPrefix(Draw(replaying: sequence), maxSteps, stoppingAt: step)
        guard case .fail(var failure)? = try? replay(sequence).outcome, let last = record.steps.indices.last else { return record }
        failure.message = "step \(last + 1) \(record.steps[last]) crashed: \(failure.message); the specification expected \(record.expectations[last])"
        failure.step = last
        record.outcome = .fail(failure)
        return record
    }

    func steps(_ sequence: ChoiceSequence) -> Int {
        if let step = stopSteps[sequence] { return step + 1 }
        return machine.run(Draw(replaying: sequence), maxSteps).steps
    }

    // MARK: Children

    /// Runs one case in a child, announcing steps; a case that ran to its end in the child, whatever its outcome,
    /// consumes `draw` here too (so a shrink learns what every candidate consumed, as in process, and makes the
    /// same attempts), a crash consumes the steps before the one it died at.
    private func watched(_ request: String, draw: Draw) throws -> (outcome: Outcome, draw: Draw) {
        let child = try running()
        child.send(request)
        var lastStep: Int?
        while let line = child.nextLine(), !line.hasPrefix("x ") {
            if line.hasPrefix("k "), let step = Int(line.dropFirst(2)) { lastStep = step }
            if line.hasPrefix("o ") {
                guard let outcome = OutcomeLine.decodeOutcome(line.dropFirst(2)) else {
                    throw IsolationError(description: "a child test process wrote '\(line)'")
                }
                _ = machine.run(draw, maxSteps)
                return (outcome, draw)
            }
        }
        let failure = try died(child, during: lastStep ?? 0)
        if let lastStep {
            _ = machine.recordPrefix(draw, maxSteps, stoppingAt: lastStep)
            stopSteps[draw.sequence] = lastStep
        }
        return (.fail(failure), draw)
    }

    private func running() throws -> Child {
        if let child, child.alive { return child }
        let started = try Child(executable: executable, arguments: arguments, key: key)
        child = started
        return started
    }

    /// The crash of a fork (or a child) that ended while running something (`during` nil: before
    /// its first case, which no case can be blamed for).
    private func died(_ child: Child, during: Int?) throws -> Failure {
        let (signal, message) = child.lastDeath()
        if signal == nil { self.child = nil }
        guard let signal, during != nil else {
            throw IsolationError(description: "a child test process ended (\(signal.map { "signal \($0)" } ?? "exit")) before running a case"
                + (message.isEmpty ? "" : ": \(message)") + " — is the test filtered out, or does it call check differently in a child?")
        }
        let name = Child.signalName(signal)
        return Failure(rule: "crash", kind: .crash, message: "the test process died of \(name)" + (message.isEmpty ? "" : " (\(message))"),
                       detail: name)
    }

    /// One child test process.
    final class Child {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let errorFile: URL
        private var buffer: [UInt8] = []
        private var ended = false
        /// The signal of the last `x SIGNAL` line.
        private var lastSignal: Int32?

        init(executable: URL, arguments: [String], key: String) throws(IsolationError) {
            errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("graph-fuzz-isolated-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment[IsolationLine.environment] = key
            // The runtime's backtracer takes seconds per trap; the report names the failing step.
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            do {
                process.standardError = try FileHandle(forWritingTo: errorFile)
                try process.run()
            } catch {
                throw IsolationError(description: "could not start the test binary \(executable.path) again: \(error)")
            }
        }

        var alive: Bool { !ended && process.isRunning }

        func send(_ line: String) {
            // A child that is already dead fails the write; its output then ends.
            try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        }

        /// The next answer line (without its marker), or nil when the output ended.
        func nextLine() -> String? {
            let marker = Array(IsolationLine.marker.utf8)
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[..<newline]
                    buffer.removeSubrange(...newline)
                    guard let start = line.firstRange(of: marker) else { continue }
                    let text = String(decoding: line[start.upperBound...], as: UTF8.self)
                    if text.hasPrefix("x ") { lastSignal = Int32(text.dropFirst(2)) }
                    return text
                }
                if ended { return nil }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { ended = true } else { buffer.append(contentsOf: data) }
            }
        }

        /// The signal the last fork died of (`x SIGNAL`), or, when the child's output ended, the
        /// signal that killed the child (nil: it exited); and the last "Fatal error" line written.
        func lastDeath() -> (signal: Int32?, message: String) {
            var signal = lastSignal
            if signal == nil {
                try? input.fileHandleForWriting.close()
                process.waitUntilExit()
                signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
            }
            lastSignal = nil
            let text = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            let message = text.split(separator: "\n").last { $0.contains("Fatal error") || $0.contains("fatal error") }.map(String.init) ?? ""
            return (signal, message)
        }

        static func signalName(_ signal: Int32) -> String {
            switch signal {
            case SIGILL: return "SIGILL"
            case SIGTRAP: return "SIGTRAP"
            case SIGABRT: return "SIGABRT"
            case SIGSEGV: return "SIGSEGV"
            case SIGBUS: return "SIGBUS"
            case SIGFPE: return "SIGFPE"
            case SIGKILL: return "SIGKILL"
            default: return "signal \(signal)"
            }
        }

        deinit {
            if process.isRunning {
                try? input.fileHandleForWriting.close()
                process.terminate()
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: errorFile)
        }
    }
}
