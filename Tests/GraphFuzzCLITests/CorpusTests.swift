import ExampleTargets
import FaultPoints
import Foundation
import GraphFuzzCLI
import GraphFuzzEngine
import Testing

/// Every committed corpus file, replayed as its own test case.
let corpusFiles: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Package.corpus)) ?? [])
    .filter { $0.hasSuffix(".case") }.sorted()

@Suite("Regression corpus")
struct CorpusTests {
    @Test("corpus case replays to its expected outcome", arguments: corpusFiles)
    func replay(_ name: String) throws {
        let file = Package.corpus + "/" + name
        let corpusCase = try Corpus.read(file)
        if corpusCase.kind == .crash || corpusCase.kind == .hang {
            // A real crash or hang would take this test process down: replay it in a worker.
            let result = try graphFuzz(["replay", file])
            #expect(result.status == 0, "\(name): \(result.stdout)\(result.stderr)")
            return
        }
        let result = try Corpus.replay(corpusCase, file: file, targets: Registry.standard.targets)
        #expect(result.passed, "\(name): \(result.message)")
        // Drift (generators changed since the case was recorded) is reported, never a failure: the case
        // replays from its trace. It is reported exactly when the recorded fingerprint is not the target's.
        let target = try #require(Registry.standard.targets.first { $0.name == corpusCase.target })
        #expect(result.drift == (corpusCase.fingerprint != target.generatorFingerprint), "\(name)")
    }

    @Test("the corpus holds one case for every mutant of every target")
    func everyMutantHasACase() throws {
        let cases = try corpusFiles.map { try Corpus.read(Package.corpus + "/" + $0) }
        for target in Registry.standard.targets {
            for mutant in target.mutants {
                #expect(cases.contains { $0.target == target.name && $0.mutant == mutant.name && mutant.declares($0.rule) },
                        "no corpus case for mutant \(mutant.name) of \(target.name)")
            }
        }
    }

    @Test("changing a generator's weights leaves every case replaying to its expected outcome, with drift reported")
    func survivesGeneratorChange() throws {
        let changed = Target(name: "queue", summary: "queue with other weights", rules: Target.queue.rules,
                             mutants: MutantTable(shipped: Faults<BoundedQueue>.shipped, [Target.queue.mutants[0]: [.offByOne]]),
                             defaultSteps: 20, generatorVersion: "1") { QueueMachine(faults: $0, weights: [1, 5, 9]) }
        #expect(changed.generatorFingerprint != Target.queue.generatorFingerprint)
        let queueCases = corpusFiles.filter { $0.hasPrefix("queue-") }
        #expect(!queueCases.isEmpty)
        for name in queueCases {
            let file = Package.corpus + "/" + name
            let result = try Corpus.replay(try Corpus.read(file), file: file, targets: [changed])
            #expect(result.passed, "\(name): \(result.message)")
            #expect(result.drift)
        }
    }

    @Test("malformed files exit 2 naming the file and line", arguments: [
        ("empty.case", "empty.case: empty file"),
        ("unknown-version.case", "unknown-version.case:2: unknown format version '7'"),
        ("unknown-target.case", "unknown-target.case:3: unknown target 'nosuch'"),
        ("unknown-command.case", "unknown-command.case:14: step 1 'shove(value: 0)': unknown step 'shove' (expected one of push, pop, count)"),
        ("bad-reference.case", "bad-reference.case:14: step 1 'push(value: v9)': argument 'value' of 'push' is not an integer"),
        ("truncated.case", "truncated.case:15: expected 'key: value' (is the file truncated?)"),
        ("truncated-at-line.case", "truncated-at-line.case:15: truncated: the file ends without its 'end: N steps' line"),
    ])
    func malformed(_ name: String, _ message: String) throws {
        let result = try graphFuzz(["replay", Package.fixtures + "/malformed/" + name])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test("replay of the committed corpus exits 0; drift is reported but still replays")
    func replayCommand() throws {
        let all = try graphFuzz(["replay"])
        #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
        #expect(all.stdout.contains("\(corpusFiles.count) passed, 0 failed, 0 malformed"))
        let drifted = try graphFuzz(["replay", "--json", Package.fixtures + "/drift"])
        #expect(drifted.status == 0)
        #expect(drifted.stdout.contains(#""event":"replay""#) && drifted.stdout.contains(#""outcome":"pass","rule":"Q1"}"#))
        let human = try graphFuzz(["replay", Package.fixtures + "/drift"])
        #expect(human.stdout.contains("generators changed since it was recorded"))
    }

    @Test("a replayed case that no longer meets its outcome fails with exit 1")
    func regressionFails() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = try String(contentsOfFile: Package.corpus + "/" + (corpusFiles.first { $0.hasPrefix("queue-") } ?? ""), encoding: .utf8)
        // A single push cannot overflow a queue of capacity 1, so the mutant no longer fails.
        let weakened = good.components(separatedBy: "\n").filter { !$0.hasPrefix("step:") && !$0.hasPrefix("end:") }
            .joined(separator: "\n") + "step: push(value: 0)\nend: 1 steps\n"
        try weakened.write(toFile: folder + "/weak.case", atomically: true, encoding: .utf8)
        let result = try graphFuzz(["replay", folder])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL") && result.stdout.contains("no longer fails Q1"))
    }

    @Test("a failure is saved atomically, named by target, rule and hash, and saving again changes nothing")
    func saving() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = runInProcess(["--mutant", "queue-off-by-one", "--seed", "1", "--corpus", folder])
        #expect(first.status == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        // The case, and the identity the folder got with its first case.
        #expect(files.count == 2 && files[0] == CorpusIdentity.fileName, "\(files)")
        #expect(files[1].hasPrefix("queue-Q1-") && files[1].hasSuffix(".case"))
        #expect(first.stdout.contains("saved: \(folder)/\(files[1])"))
        let identity = try CorpusIdentity.read(folder)
        #expect(identity != nil)
        _ = runInProcess(["--mutant", "queue-off-by-one", "--seed", "1", "--corpus", folder])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
        #expect(try CorpusIdentity.read(folder) == identity)
        let saved = try Corpus.read(folder + "/" + files[1])
        #expect(saved.mutant == "queue-off-by-one" && saved.rule == "Q1" && saved.steps.count == 2)
    }

    @Test("the exported Swift tests are up to date with the corpus")
    func exportedTestsUpToDate() throws {
        let exported = try TestExporter(registry: .standard).export(corpus: Package.corpus)
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Package.exportedTests).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(onDisk == exported.map(\.fileName).sorted(), "run `swift run graph-fuzz export-tests`")
        for test in exported {
            let text = try? String(contentsOfFile: Package.exportedTests + "/" + test.fileName, encoding: .utf8)
            #expect(text == test.source, "\(test.fileName) is stale: run `swift run graph-fuzz export-tests`")
        }
    }
}
