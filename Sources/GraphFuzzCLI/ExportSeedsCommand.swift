#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine

/// Writes the corpus as libFuzzer seed corpora: `OUT/<target>/<case name>`, one input per case.
struct ExportSeedsCommand: Command {
    static let name = "export-seeds"
    static let usage = "export-seeds [--corpus DIR] [--out DIR] [--target NAME]"
    static let help = "the corpus as libFuzzer seed inputs, OUT/<target>/ (default out: fuzz-seeds)"

    var corpus: String
    var output: String
    var target: String?

    init(_ flags: inout Flags) throws(UsageError) {
        corpus = try flags.string("--corpus") ?? "Corpus"
        output = try flags.string("--out") ?? "fuzz-seeds"
        target = try flags.string("--target")
    }

    func run(_ context: CommandContext) throws(UsageError) -> Int32 {
        let registry = context.registry, console = context.console
        if let target, registry.target(named: target) == nil {
            throw UsageError("export-seeds: --target: unknown target '\(target)' (known: \(registry.targets.map(\.name).joined(separator: ", ")))")
        }
        let exported: (seeds: [FuzzSeed], skipped: [String])
        do { exported = try SeedExporter(registry: registry).export(corpus: corpus, target: target) } catch {
            console.err("graph-fuzz: \(error)\n")
            return 2
        }
        if FileManager.default.fileExists(atPath: output), !FileIO.isFolder(output) {
            throw UsageError("export-seeds: --out \(output) is a file, not a folder (nothing written)")
        }
        for reason in exported.skipped { console.err("graph-fuzz: skipped \(reason)\n") }
        for seed in exported.seeds {
            let folder = FileIO.path(output, appending: seed.target)
            let path = FileIO.path(folder, appending: seed.name)
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
        console.out("wrote \(exported.seeds.count) seeds for \(targets) targets to \(output)/<target>/\(exported.skipped.isEmpty ? "" : "; skipped \(exported.skipped.count)")\n")
        return 0
    }
}
