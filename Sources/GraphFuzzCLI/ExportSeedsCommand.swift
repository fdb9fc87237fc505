import Foundation
import GraphFuzzEngine

/// `graph-fuzz export-seeds [--corpus DIR] [--out DIR] [--target NAME]`.
package struct ExportSeedsArguments: Equatable, Sendable {
    package var corpus = "Corpus"
    package var output = "fuzz-seeds"
    package var target: String?

    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> ExportSeedsArguments {
        var rest = arguments
        var result = ExportSeedsArguments()
        while let argument = rest.popFirst() {
            guard ["--corpus", "--out", "--target"].contains(argument) else {
                throw UsageError("export-seeds: unknown argument '\(argument)' (export-seeds takes --corpus DIR, --out DIR and --target NAME)")
            }
            guard let value = rest.popFirst() else { throw UsageError("export-seeds: \(argument) needs a value") }
            switch argument {
            case "--corpus": result.corpus = value
            case "--out": result.output = value
            default: result.target = value
            }
        }
        return result
    }
}

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
            let made = target.machine().generate(Draw(.bytes(bytes)), harness.maxSteps)
            guard Array(made.prefix(trace.count)) == trace else {
                skipped.append("\(file): its choices no longer make its trace (generators changed since it was recorded)")
                continue
            }
            seeds.append(FuzzSeed(target: target.name, name: ((file as NSString).lastPathComponent as NSString).deletingPathExtension,
                                  bytes: bytes))
        }
        return (seeds, skipped)
    }
}

/// Writes the corpus as libFuzzer seed corpora: `OUT/<target>/<case name>`, one input per case.
struct ExportSeedsCommand {
    var arguments: ExportSeedsArguments
    var registry: Registry
    var console: Console

    func execute() throws(UsageError) -> Int32 {
        if let target = arguments.target, registry.target(named: target) == nil {
            throw UsageError("export-seeds: --target: unknown target '\(target)' (known: \(registry.targets.map(\.name).joined(separator: ", ")))")
        }
        let exported: (seeds: [FuzzSeed], skipped: [String])
        do { exported = try SeedExporter(registry: registry).export(corpus: arguments.corpus, target: arguments.target) } catch {
            console.err("graph-fuzz: \(error)\n")
            return 2
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: arguments.output, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw UsageError("export-seeds: --out \(arguments.output) is a file, not a folder (nothing written)")
        }
        for reason in exported.skipped { console.err("graph-fuzz: skipped \(reason)\n") }
        for seed in exported.seeds {
            let folder = (arguments.output as NSString).appendingPathComponent(seed.target)
            let path = (folder as NSString).appendingPathComponent(seed.name)
            do throws(FileError) {
                try FileIO.createFolder(folder)
                do { try Data(seed.bytes).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                    throw FileError(file: path, action: "write the seed", reason: FileIO.reason(of: error))
                }
            } catch {
                console.err("graph-fuzz: export-seeds: \(error)\n")
                return 2
            }
        }
        let targets = Set(exported.seeds.map(\.target)).count
        console.out("wrote \(exported.seeds.count) seeds for \(targets) targets to \(arguments.output)/<target>/\(exported.skipped.isEmpty ? "" : "; skipped \(exported.skipped.count)")\n")
        return 0
    }
}
