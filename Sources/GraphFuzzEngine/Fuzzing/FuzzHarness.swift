/// One target (production code or a named mutant) behind a coverage-guided fuzzer: the fuzzer's
/// bytes feed a `.bytes` draw and the case runs, specification and system side by side, through
/// the target's type-erased machine.
package struct FuzzHarness {
    package let target: Target
    package let mutant: String?
    /// Most steps per case.
    package let maxSteps: Int
    private let machine: AnyMachine

    package init(target: Target, mutant: String? = nil, maxSteps: Int? = nil) {
        self.target = target
        self.mutant = mutant
        self.maxSteps = maxSteps ?? target.defaultSteps
        machine = target.machine(mutant: mutant)
    }

    /// Runs the case that `bytes` make: its outcome and the steps it ran.
    package func run(_ bytes: [UInt8]) -> CaseResult {
        machine.run(Draw(.bytes(bytes)), maxSteps)
    }

    /// Runs one case from `draw`: its outcome, the steps it ran and what it consumed.
    package func run(_ draw: Draw) -> CaseResult {
        machine.run(draw, maxSteps)
    }

    /// The outcome of one case from `draw` (the test function of searches and shrinking).
    package func test(_ draw: Draw) -> Outcome {
        machine.run(draw, maxSteps).outcome
    }

    /// Draws a case from `draw` against the specification alone: the system is never made, so a
    /// case that would crash or hang it is safe to convert. It consumes the choices a full run
    /// consumes (a failing run stops earlier, at a prefix of them).
    package func generate(_ draw: Draw) {
        _ = machine.generate(draw, maxSteps)
    }

    /// The bytes that replay a choice sequence (a corpus case's recorded choices, say).
    package func bytes(replaying sequence: ChoiceSequence) -> [UInt8] {
        ChoiceBytes.bytes(replaying: sequence, run: generate)
    }

    /// The choices the case that `bytes` make consumes.
    package func choices(from bytes: [UInt8]) -> ChoiceSequence {
        ChoiceBytes.choices(from: bytes, run: generate)
    }

    /// The description of a failure for a fuzzer's log, one line.
    package func describe(_ failure: Failure) -> String {
        let step = failure.step.map { " at step \($0 + 1)" } ?? ""
        return "\(target.name)\(mutant.map { " (mutant \($0))" } ?? ""): \(failure.rule) \(failure.kind.rawValue)\(step): \(failure.message)"
    }
}

/// Which target a fuzzer binary runs, from its arguments, its environment and its name.
package struct FuzzSelection: Equatable, Sendable {
    package var target: String
    package var mutant: String?
    package var steps: Int?

    /// Arguments `--target=NAME`, `--mutant=NAME`, `--steps=N` (libFuzzer ignores flags starting
    /// with `--`) win over `GRAPHFUZZ_TARGET`, `GRAPHFUZZ_MUTANT`, `GRAPHFUZZ_STEPS`; without
    /// either, an executable named `graph-fuzz-<target>` (a fuzzing cluster runs one binary per
    /// target) selects that target, and a mutant alone selects its target.
    package static func parse(arguments: [String], environment: [String: String], executableName: String,
                             targets: [Target]) throws(FuzzSelectionError) -> FuzzHarness {
        func option(_ name: String, _ variable: String) -> String? {
            let prefix = "--\(name)="
            return arguments.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? environment[variable]
        }
        let names = targets.map(\.name).joined(separator: ", ")
        var steps: Int?
        if let text = option("steps", "GRAPHFUZZ_STEPS") {
            guard let value = Int(text), value > 0 else {
                let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
                let tooLarge = !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) && digits.contains { $0 != "0" }
                throw FuzzSelectionError("--steps: '\(text)' is \(tooLarge ? "out of range (1–\(Int.max))" : "not a positive integer")")
            }
            steps = value
        }
        let mutant = option("mutant", "GRAPHFUZZ_MUTANT").flatMap { $0.isEmpty || $0 == "none" ? nil : $0 }
        var targetName = option("target", "GRAPHFUZZ_TARGET")
        if targetName == nil, executableName.hasPrefix("graph-fuzz-") {
            let suffix = String(executableName.dropFirst("graph-fuzz-".count))
            if targets.contains(where: { $0.name == suffix }) { targetName = suffix }
        }
        if let mutant {
            guard let owner = targets.first(where: { $0.mutant(named: mutant) != nil }) else {
                let all = targets.flatMap { $0.mutants.map(\.name) }.joined(separator: ", ")
                throw FuzzSelectionError("--mutant: unknown mutant '\(mutant)' (known: \(all))")
            }
            if let targetName, targetName != owner.name {
                throw FuzzSelectionError("--mutant: '\(mutant)' belongs to target '\(owner.name)', not '\(targetName)'")
            }
            return FuzzHarness(target: owner, mutant: mutant, maxSteps: steps)
        }
        guard let targetName else {
            throw FuzzSelectionError("no target: pass --target=NAME or set GRAPHFUZZ_TARGET (known: \(names))")
        }
        guard let target = targets.first(where: { $0.name == targetName }) else {
            throw FuzzSelectionError("--target: unknown target '\(targetName)' (known: \(names))")
        }
        return FuzzHarness(target: target, mutant: nil, maxSteps: steps)
    }
}

/// A fuzzer binary started without a valid target selection.
package struct FuzzSelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
