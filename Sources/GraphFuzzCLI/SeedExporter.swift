#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine

/// One corpus case as a libFuzzer seed input.
package struct FuzzSeed: Equatable, Sendable {
    package var target: String
    /// The file name inside the target's folder: the corpus file's name without `.case`.
    package var name: String
    package var bytes: [UInt8]
}

/// Converts corpus cases into libFuzzer seed inputs, one folder per target.
package struct SeedExporter {
    package var registry: Registry
    package init(registry: Registry) { self.registry = registry }

    /// The seeds for the cases under `corpus` (of `target` only, if given), and the cases skipped
    /// with the reason: a case whose recorded choices no longer make its trace (the generators
    /// changed since it was recorded) cannot become bytes.
    package func export(corpus: String, target only: String? = nil) throws(CorpusError) -> (seeds: [FuzzSeed], skipped: [String]) {
        var seeds: [FuzzSeed] = [], skipped: [String] = []
        for file in try Corpus.files(in: [corpus]) {
            let corpusCase = try Corpus.read(file)
            if let only, corpusCase.target != only { continue }
            guard let target = registry.target(named: corpusCase.target) else {
                throw CorpusError(file: file, line: nil, message: "unknown target '\(corpusCase.target)'")
            }
            let harness = FuzzHarness(target: target, maxSteps: max(target.defaultSteps, corpusCase.steps.count))
            let bytes = harness.bytes(replaying: corpusCase.choices)
            // The bytes must make the recorded trace (a prefix: a run stops at its failure).
            let trace = [corpusCase.config] + corpusCase.steps
            let machine = target.machine()
            let made = FailureReport.needsScheduler(steps: corpusCase.steps, kind: corpusCase.kind)
                ? machine.generateRunning(Draw(.bytes(bytes)), harness.maxSteps) : machine.generate(Draw(.bytes(bytes)), harness.maxSteps)
            guard Array(made.prefix(trace.count)) == trace else {
                skipped.append("\(file): its choices no longer make its trace (generators changed since it was recorded)")
                continue
            }
            seeds.append(FuzzSeed(target: target.name, name: FileIO.deletingExtension(of: FileIO.lastComponent(of: file)),
                                  bytes: bytes))
        }
        return (seeds, skipped)
    }
}
