import Foundation
import GraphFuzzEngine

/// `graph-fuzz replay [FILE|DIR ...]`: one line per case; exit 1 if a case misses its expected
/// outcome, 2 on a malformed file (file and line named).
struct ReplayCommand {
    var paths: [String]
    var json: Bool
    var registry: Registry
    var console: Console
    /// Replays `crash` and `hang` cases in a worker process when set.
    var workerExecutable: String?
    /// Seconds before a replay in a worker is killed and counted as a hang.
    var caseTimeout = 10.0

    func execute() -> Int32 {
        let files: [String]
        do { files = try Corpus.files(in: paths) } catch {
            console.err("graph-fuzz: \(error)\n")
            return 2
        }
        var failed = 0, malformed = 0
        for file in files {
            do {
                let corpusCase = try Corpus.read(file)
                let result: ReplayResult
                if let workerExecutable, corpusCase.kind == .crash || corpusCase.kind == .hang {
                    result = try WorkerReplay(executable: workerExecutable, timeout: caseTimeout).replay(corpusCase, file: file, targets: registry.targets)
                } else {
                    result = try Corpus.replay(corpusCase, file: file, targets: registry.targets)
                }
                if !result.passed { failed += 1 }
                if json {
                    console.out(JSONValue.object([
                        ("event", .string("replay")), ("file", .string(file)), ("target", .string(result.target)),
                        ("outcome", .string(result.passed ? "pass" : "fail")), ("rule", .optional(result.rule)),
                    ]).rendered + "\n")
                } else {
                    let drift = result.drift ? " (generators changed since it was recorded; replayed from its trace)" : ""
                    console.out("\(result.passed ? "pass" : "FAIL")  \(file)  \(result.message)\(drift)\n")
                }
            } catch {
                malformed += 1
                console.err("graph-fuzz: \(error)\n")
            }
        }
        if !json { console.out("\(files.count - failed - malformed) passed, \(failed) failed, \(malformed) malformed\n") }
        return malformed > 0 ? 2 : (failed > 0 ? 1 : 0)
    }
}

/// `graph-fuzz export-tests`: the corpus as Swift Testing tests against the production API.
struct ExportTestsCommand {
    var corpus: String
    var output: String
    var registry: Registry
    var console: Console

    func execute() -> Int32 {
        let exported: [ExportedTest]
        do { exported = try TestExporter(registry: registry).export(corpus: corpus) } catch {
            console.err("graph-fuzz: \(error)\n")
            return 2
        }
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: output, withIntermediateDirectories: true)
            let stale = try manager.contentsOfDirectory(atPath: output).filter { $0.hasSuffix(".swift") && $0 != "Support.swift" }
            for name in stale where !exported.contains(where: { $0.fileName == name }) {
                try manager.removeItem(atPath: (output as NSString).appendingPathComponent(name))
            }
            for test in exported {
                try Data(test.source.utf8).write(to: URL(fileURLWithPath: (output as NSString).appendingPathComponent(test.fileName)), options: .atomic)
            }
        } catch {
            console.err("graph-fuzz: cannot write to \(output): \(error.localizedDescription)\n")
            return 2
        }
        console.out("wrote \(exported.count) tests to \(output)\n")
        return 0
    }
}

/// One exported test file.
public struct ExportedTest: Equatable, Sendable {
    public var fileName: String
    public var source: String
}

/// Turns corpus cases into Swift test files.
public struct TestExporter {
    public var registry: Registry
    public init(registry: Registry) { self.registry = registry }

    public func export(corpus: String) throws(CorpusError) -> [ExportedTest] {
        var tests: [ExportedTest] = []
        for file in try Corpus.files(in: [corpus]) {
            let corpusCase = try Corpus.read(file)
            guard let target = registry.target(named: corpusCase.target) else {
                throw CorpusError(file: file, line: nil, message: "unknown target '\(corpusCase.target)'")
            }
            let record: CaseRecord
            // A crash or hang case's last step is described, not run: it would take this process down.
            let diesInProcess = corpusCase.kind == .crash || corpusCase.kind == .hang
            let machine = target.machine()
            switch (diesInProcess ? machine.replayPrefix : machine.replay)(corpusCase.config, corpusCase.steps) {
            case .success(let r): record = r
            case .failure(let error): throw CorpusError(file: file, line: corpusCase.line(ofStep: error.step), message: error.message)
            }
            let base = (corpusCase.fileName as NSString).deletingPathExtension
            let name = SwiftTestRenderer.functionName(target: corpusCase.target, mutant: corpusCase.mutant, rule: corpusCase.rule,
                                                      hash: String(base.split(separator: "-").last ?? ""))
            var source = "// Generated by `graph-fuzz export-tests` from \((file as NSString).lastPathComponent). Do not edit:\n"
            source += "// change the corpus and export again. "
            if diesInProcess {
                source += "Its last step \(corpusCase.kind == .crash ? "crashed" : "hung") the process \(corpusCase.mutant.map { "on mutant \($0)" } ?? "once")"
                source += "; the fixed production code must run it to the end.\n"
            } else {
                source += "It passes on production code"
                source += corpusCase.mutant.map { "; its last #expect fails on mutant \($0) (rule \(corpusCase.rule))" } ?? ""
                source += ".\n"
            }
            for module in ["Testing"] + target.swiftImports { source += "import \(module)\n" }
            source += "\n"
            source += SwiftTestRenderer.test(displayName: "\(corpusCase.target) \(corpusCase.rule): \(base)", functionName: name, lines: record.swiftLines)
            tests.append(ExportedTest(fileName: "\(name).swift", source: source))
        }
        return tests
    }
}
