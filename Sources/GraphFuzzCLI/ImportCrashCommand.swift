#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine

/// Turns a libFuzzer input into a corpus case: replays its bytes as choices, shrinks them as a
/// search's failure is shrunk, and saves the shrunk case. Exit 0 when saved, 2 when the file
/// cannot be read, the selection is wrong, the corpus cannot take a case or the input does not fail, 3 when the
/// case could not be saved after all (the disk filled meanwhile).
struct ImportCrashCommand: Command {
    static let name = "import-crash"
    static let usage = "import-crash FILE --target NAME [--mutant NAME] [--steps N] [--corpus DIR]"
    static let help = "a libFuzzer input (crash-* file) as a shrunk corpus case"
    static let flagPrefix = "import-crash: "

    var file: String
    var target: String?
    var mutant: String?
    var steps: Int?
    var corpus: String

    init(_ flags: inout Flags) throws(UsageError) {
        target = try flags.string("--target")
        mutant = try flags.string("--mutant")
        steps = try flags.int("--steps", in: FlagLimits.steps)
        corpus = try flags.string("--corpus") ?? "Corpus"
        let files = flags.operands()
        guard let file = files.first else { throw UsageError("import-crash: no input file (a libFuzzer crash-* file)") }
        if files.count > 1 { throw UsageError("import-crash: one input file, not \(files.count) (\(files.joined(separator: ", ")))") }
        self.file = file
    }

    func run(_ context: CommandContext) throws(UsageError) -> Int32 {
        let registry = context.registry, console = context.console
        let harness = try selection(registry)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw UsageError("import-crash: \(file): cannot read the file")
        }
        do { try Corpus.checkSavable(corpus) } catch {
            throw UsageError("import-crash: --corpus: \(error)")
        }
        let imported: ImportedCrash
        do throws(ImportCrashError) { imported = try ImportedCrash(bytes: Array(data), harness: harness) } catch {
            throw UsageError("import-crash: \(file): \(error.message)")
        }
        let path: String
        do { path = try Corpus.write(imported.corpusCase, to: corpus) } catch {
            console.err("graph-fuzz: infrastructure error: could not save the case: \(error)\n")
            return 3
        }
        let failure = imported.failure
        var out = "IMPORTED \(harness.target.name)\(harness.mutant.map { " (mutant \($0))" } ?? "") — rule \(failure.rule), \(failure.kind.rawValue)\n"
        out += "  \(failure.message)\n"
        out += "  \(file): \(data.count) bytes, \(imported.originalSteps) steps; shrunk to \(imported.record.steps.count) steps in \(imported.shrink.attempts) attempts\n"
        out += "    \(imported.record.config)\n"
        for (index, step) in imported.record.steps.enumerated() {
            out += "    \(index + 1). \(step)    // \(imported.record.expectations[index])\n"
        }
        out += "  saved: \(path)  (graph-fuzz replay \(path))\n"
        console.out(out)
        return 0
    }

    /// The target and mutant: `--mutant` alone names its target.
    private func selection(_ registry: Registry) throws(UsageError) -> FuzzHarness {
        if target == nil && mutant == nil {
            throw UsageError("import-crash: --target is required (known: \(registry.targets.map(\.name).joined(separator: ", ")))")
        }
        let flags = [target.map { "--target=\($0)" }, mutant.map { "--mutant=\($0)" }, steps.map { "--steps=\($0)" }].compactMap { $0 }
        do throws(FuzzSelectionError) {
            return try FuzzSelection.parse(arguments: flags, environment: [:], executableName: "", targets: registry.targets)
        } catch {
            throw UsageError("import-crash: \(error.message)")
        }
    }
}

/// A fuzzer input replayed and shrunk: the failure, the shrink, and the corpus case to save.
package struct ImportedCrash {
    package var failure: Failure
    package var originalSteps: Int
    package var shrink: ShrinkResult
    package var record: CaseRecord
    package var corpusCase: CorpusCase

    /// Replays `bytes` on the harness's target; a failing case is shrunk (the same signature only)
    /// and described. Throws when the input passes or is rejected.
    package init(bytes: [UInt8], harness: FuzzHarness, budget: ShrinkBudget = ShrinkBudget()) throws(ImportCrashError) {
        let draw = Draw(.bytes(bytes))
        let first = harness.run(draw)
        let outcome = first.outcome
        if let fault = outcome.harnessFault {
            throw ImportCrashError(message: "the harness could not run the input on target \(harness.target.name): \(fault) "
                + "(a harness fault, not a failure of the code under test): nothing to import")
        }
        guard let found = outcome.failure else {
            let selected = "target \(harness.target.name)\(harness.mutant.map { " with mutant \($0)" } ?? "")"
            throw ImportCrashError(message: "the input \(outcome == .rejected ? "is rejected (its assumptions do not hold)" : "passes") on \(selected): nothing to import (was it found on another target or mutant?)")
        }
        let shrinker = Shrinker(signature: found.signature, budget: budget, test: harness.test)
        let shrink = shrinker.shrink(draw.sequence)
        let machine = harness.target.machine(mutant: harness.mutant)
        let record = machine.record(shrink.sequence, harness.maxSteps)
        failure = record.outcome.failure ?? found
        originalSteps = first.steps
        self.shrink = shrink
        self.record = record
        // An imported case has no seed: seed and case number are 0; its choices and trace replay it.
        corpusCase = CorpusCase(target: harness.target.name, mutant: harness.mutant, rule: failure.rule, kind: failure.kind,
                                seed: 0, caseIndex: 0, fingerprint: harness.target.generatorFingerprint,
                                choices: shrink.sequence, config: record.config, steps: record.steps)
    }
}

/// A fuzzer input that cannot be imported.
package struct ImportCrashError: Error, Equatable, Sendable {
    package var message: String
}
