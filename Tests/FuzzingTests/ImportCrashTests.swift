import ExampleTargets
import Foundation
import GraphFuzzCLI
import GraphFuzzEngine
import Testing

@Suite("graph-fuzz import-crash and export-seeds")
struct ImportCrashTests {
    /// A fuzzer input that fails on the mutant: a long random case's choices as bytes.
    private func crashInput(target: Target, mutant: String) throws -> [UInt8] {
        let search = try Campaign.firstFailure(target, mutant: mutant, options: SearchOptions(seed: 3, runs: 5000))
        let found = try #require(search.failures.first, "the search found no failure of \(mutant)")
        return FuzzHarness(target: target, mutant: mutant).bytes(replaying: found.original)
    }

    private func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        nonisolated(unsafe) var out = "", err = ""
        let console = Console(out: { out += $0 }, err: { err += $0 }, isTerminal: false)
        let code = GraphFuzzCommand(console: console).run(arguments)
        return (code, out, err)
    }

    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "graphfuzz-fuzzing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a crash input becomes a shrunk corpus case that replays: production passes, the mutant fails its rule")
    func importsAndShrinks() throws {
        let target = try #require(Registry.standard.target(named: "graph"))
        let mutant = "store-no-inverse"
        let bytes = try crashInput(target: target, mutant: mutant)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/crash-input"
        try Data(bytes).write(to: URL(fileURLWithPath: input))

        let result = run(["import-crash", input, "--target", "graph", "--mutant", mutant, "--corpus", folder + "/corpus"])
        #expect(result.code == 0, "\(result.err)")
        let files = try Corpus.files(in: [folder + "/corpus"])
        try #require(files.count == 1)
        let corpusCase = try Corpus.read(files[0])
        #expect(corpusCase.mutant == mutant)
        #expect(corpusCase.rule == "G7")
        #expect(result.out.contains("saved: \(files[0])"))

        // Shrunk: fewer steps than the input ran, and no more than the search's own shrink gives.
        let original = FuzzHarness(target: target, mutant: mutant).run(bytes).steps
        #expect(corpusCase.steps.count < original)
        let replay = try Corpus.replay(corpusCase, file: files[0], targets: Registry.standard.targets)
        #expect(replay.passed, "\(replay.message)")
    }

    @Test("a crash file libFuzzer wrote for queue-off-by-one imports as the two-push case")
    func libFuzzerCrashFile() throws {
        // The bytes of a crash-* file from `graph-fuzz-libfuzzer --mutant=queue-off-by-one -seed=1`.
        let bytes = [UInt8](repeating: 0xFF, count: 117) + [0x02, 0x22]
        let target = try #require(Registry.standard.target(named: "queue"))
        let harness = FuzzHarness(target: target, mutant: "queue-off-by-one")
        #expect(harness.run(bytes).steps == 5)
        let imported = try ImportedCrash(bytes: bytes, harness: harness)
        #expect(imported.failure.rule == "Q1")
        #expect(imported.record.config.description == "config(capacity: 1)")
        #expect(imported.record.steps.map(\.description) == ["push(value: 0)", "push(value: 0)"])
        #expect(imported.corpusCase.kind == .mismatch && imported.corpusCase.mutant == "queue-off-by-one")
    }

    @Test("an input that passes is not imported: exit 2 and a message naming the file")
    func passingInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/empty-input"
        try Data().write(to: URL(fileURLWithPath: input))
        let result = run(["import-crash", input, "--target", "queue", "--corpus", folder + "/corpus"])
        #expect(result.code == 2)
        #expect(result.err.contains(input) && result.err.contains("passes on target queue"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/corpus"))
    }

    @Test("bad usage names what was wrong", arguments: [
        (["import-crash"], "no input file"),
        (["import-crash", "x"], "--target is required"),
        (["import-crash", "x", "--target", "nope"], "unknown target 'nope'"),
        (["import-crash", "x", "--target", "queue", "--mutant", "store-no-inverse"], "belongs to target 'graph'"),
        (["import-crash", "/nonexistent/crash-1", "--target", "queue"], "cannot read the file"),
        (["export-seeds", "--target", "nope"], "unknown target 'nope'"),
        (["export-seeds", "--bogus"], "unknown argument '--bogus'"),
    ])
    func usage(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.code == 2)
        #expect(result.err.contains(message), "\(result.err)")
    }

    @Test("export-seeds writes each corpus case as bytes that make its trace; import-crash brings a mutant's seed back")
    func exportSeeds() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A corpus of one case, made by a search.
        let target = try #require(Registry.standard.target(named: "queue"))
        let search = try Campaign.firstFailure(target, mutant: "queue-off-by-one", options: SearchOptions(seed: 1, runs: 2000))
        let found = try #require(search.failures.first)
        let corpusCase = try #require(Corpus.makeCase(found, fingerprint: target.generatorFingerprint))
        let path = try Corpus.write(corpusCase, to: folder + "/corpus")

        let result = run(["export-seeds", "--corpus", folder + "/corpus", "--out", folder + "/seeds"])
        #expect(result.code == 0, "\(result.err)")
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let seed = try #require(FileManager.default.contents(atPath: "\(folder)/seeds/queue/\(name)"))
        let made = target.machine().generate(Draw(.bytes(Array(seed))), target.defaultSteps)
        #expect(Array(made.prefix(corpusCase.steps.count + 1)) == [corpusCase.config] + corpusCase.steps)

        let back = run(["import-crash", "\(folder)/seeds/queue/\(name)", "--mutant", "queue-off-by-one", "--corpus", folder + "/back"])
        #expect(back.code == 0, "\(back.err)")
        let imported = try Corpus.read(try #require(try Corpus.files(in: [folder + "/back"]).first))
        #expect(imported.steps == corpusCase.steps)
    }

    @Test("the shipped corpus exports without a skipped case")
    func shippedCorpus() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus").path
        let exported = try SeedExporter(registry: .standard).export(corpus: corpus)
        #expect(exported.skipped.isEmpty, "\(exported.skipped)")
        #expect(exported.seeds.count == (try Corpus.files(in: [corpus])).count)
        #expect(exported.seeds.allSatisfy { !$0.bytes.isEmpty })
    }
}
