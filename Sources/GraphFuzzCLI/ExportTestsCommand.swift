#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GraphFuzzEngine

/// `graph-fuzz export-tests`: the corpus as Swift Testing tests against the production API.
///
/// Every file it writes starts with `ExportedTest.header`, naming the corpus file it came from and the
/// corpus's identity (`CorpusIdentity`). It replaces or removes only files exported from the corpus
/// of the same identity, and refuses (exit 2, nothing written or removed) an `--out` folder holding
/// anything else: a tool never deletes what it did not write. It prints each file it wrote and removed.
struct ExportTestsCommand: Command {
    static let name = "export-tests"
    static let usage = "export-tests [--corpus DIR] [--out DIR]"
    static let help = """
        write the corpus as Swift tests (default out: Tests/CorpusRegressionTests);
        replaces only files it exported from the same corpus (known by
        the identity in DIR/.graph-fuzz-corpus, not by its name)
        """

    var corpus: String
    var output: String

    init(_ flags: inout Flags) throws(UsageError) {
        corpus = try flags.string("--corpus") ?? "Corpus"
        output = try flags.string("--out") ?? "Tests/CorpusRegressionTests"
    }

    func run(_ context: CommandContext) -> Int32 {
        let registry = context.registry, console = context.console
        if FileManager.default.fileExists(atPath: corpus), !FileIO.isFolder(corpus) {
            console.err("graph-fuzz: export-tests: --corpus \(corpus) is a file: export-tests takes a corpus folder\n")
            return 2
        }
        // A corpus without an identity yet gets one, written only once the plan holds (nothing is touched before).
        let recorded: String?
        do { recorded = try CorpusIdentity.read(corpus) } catch {
            console.err("graph-fuzz: export-tests: \(error)\n")
            return 2
        }
        let identity = recorded ?? CorpusIdentity.make()
        let exported: [ExportedTest]
        do { exported = try TestExporter(registry: registry).export(corpus: corpus, identity: identity) } catch {
            console.err("graph-fuzz: \(error)\n")
            return 2
        }
        let plan: ExportPlan
        do { plan = try ExportPlan.make(output: output, corpus: corpus, identity: identity, recorded: recorded != nil, tests: exported) } catch {
            console.err("graph-fuzz: export-tests: \(error.message)\n")
            return 2
        }
        do {
            if recorded == nil {
                try CorpusIdentity.write(identity, to: corpus)
                console.out("gave \(corpus) its identity: \(FileIO.path(corpus, appending: CorpusIdentity.fileName)) (keep it with the cases)\n")
            }
            try FileIO.createFolder(output)
            for test in plan.write {
                try FileIO.writeAtomically(test.source, to: FileIO.path(output, appending: test.fileName))
                console.out("wrote \(FileIO.path(output, appending: test.fileName))\n")
            }
            for name in plan.remove {
                let path = FileIO.path(output, appending: name)
                try FileIO.remove(path)
                console.out("removed \(path) (its corpus case is gone)\n")
            }
        } catch {
            console.err("graph-fuzz: export-tests: \(error)\n")
            return 2
        }
        console.out("\(exported.count) tests in \(output): \(plan.write.count) written, \(plan.unchanged) unchanged, \(plan.remove.count) removed\n")
        return 0
    }
}

/// What an export changes in its output folder, decided before anything is touched.
struct ExportPlan {
    /// New or changed files.
    var write: [ExportedTest]
    /// Unchanged files.
    var unchanged: Int
    /// Files this command exported from the same corpus before whose case is gone.
    var remove: [String]

    /// Refuses (`UsageError`) a folder holding files not exported from the corpus of `identity`. A
    /// test exported before exports recorded the corpus's identity is replaced when this export
    /// writes a file of its name (the name holds the case's hash: the same case); any other such
    /// file is refused, since nothing tells which corpus it came from.
    /// `recorded`: the corpus holds `identity` already (else it is the new one it will get).
    static func make(output: String, corpus: String, identity: String, recorded: Bool, tests: [ExportedTest]) throws(UsageError) -> ExportPlan {
        let manager = FileManager.default
        guard manager.fileExists(atPath: output) else {
            return ExportPlan(write: tests, unchanged: 0, remove: [])
        }
        guard FileIO.isFolder(output) else { throw UsageError("--out \(output) is a file, not a folder (nothing written)") }
        let names: [String]
        do { names = try manager.contentsOfDirectory(atPath: output).filter { !$0.hasPrefix(".") }.sorted() } catch {
            throw UsageError("cannot list --out \(output): \(FileIO.reason(of: error)) (nothing written)")
        }
        let writing = Set(tests.map(\.fileName))
        var foreign: [String] = [], otherCorpus: [(name: String, source: ExportedTest.Source)] = [], unknown: [String] = []
        var ours: [String: String] = [:]
        for name in names {
            let path = FileIO.path(output, appending: name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), let source = ExportedTest.source(of: text) else {
                foreign.append(name)
                continue
            }
            switch source.identity {
            case identity?: ours[name] = text
            case nil where writing.contains(name): ours[name] = text
            case nil: unknown.append(name)
            case _?: otherCorpus.append((name, source))
            }
        }
        if !foreign.isEmpty {
            throw UsageError("--out \(output) holds files graph-fuzz export-tests did not write (\(list(foreign))); "
                + "it writes only into a folder of its own exports: choose another --out (nothing written or removed)")
        }
        if let (name, source) = otherCorpus.first {
            throw UsageError("--out \(output) holds tests exported from another corpus ('\(source.corpusName)', identity \(source.identity ?? "-"), "
                + "for example \(name)), not from \(corpus) (\(recorded ? "identity \(identity)" : "no identity yet")): "
                + "choose another --out (nothing written or removed)")
        }
        if !unknown.isEmpty {
            throw UsageError("--out \(output) holds tests exported before exports named their corpus's identity, of cases \(corpus) "
                + "does not hold (\(list(unknown))): which corpus they came from cannot be told; remove them if they are from this corpus "
                + "and export again, or choose another --out (nothing written or removed)")
        }
        let write = tests.filter { ours[$0.fileName] != $0.source }
        let remove = ours.keys.filter { !writing.contains($0) }.sorted()
        return ExportPlan(write: write, unchanged: tests.count - write.count, remove: remove)
    }

    private static func list(_ names: [String]) -> String {
        names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", and \(names.count - 5) more" : "")
    }
}

/// One exported test file.
package struct ExportedTest: Equatable, Sendable {
    package var fileName: String
    package var source: String

    /// The first line of every exported file starts with this, followed by
    /// `CORPUS/FILE.case (corpus IDENTITY). Do not edit:`.
    static let header = "// Generated by `graph-fuzz export-tests` from "

    /// Where an exported file came from, as its first line says.
    struct Source: Equatable {
        /// The corpus folder's name, "" in files exported before headers named it.
        var corpusName: String
        /// The corpus's identity, nil in files exported before headers recorded it.
        var identity: String?
    }

    /// The name an export records for a corpus folder: its last path component (for the reader;
    /// the identity is what tells corpora apart).
    static func corpusName(_ corpus: String) -> String {
        URL(fileURLWithPath: corpus).standardizedFileURL.lastPathComponent
    }

    /// The first line for a test exported from `relative` (a path inside the corpus folder).
    static func firstLine(corpusName: String, relative: String, identity: String) -> String {
        header + "\(corpusName)/\(relative) (corpus \(identity)). Do not edit:"
    }

    /// Where a file was exported from, or nil when this command did not write it.
    static func source(of text: String) -> Source? {
        guard let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first,
              firstLine.hasPrefix(header) else { return nil }
        let rest = firstLine.dropFirst(header.count)
        var identity: String?
        if let open = lastRange(of: " (corpus ", in: rest), let close = rest[open.upperBound...].firstIndex(of: ")") {
            let text = String(rest[open.upperBound..<close])
            if CorpusIdentity.isIdentifier(text) { identity = text }
        }
        guard let slash = rest.firstIndex(of: "/") else { return Source(corpusName: "", identity: identity) }
        return Source(corpusName: String(rest[..<slash]), identity: identity)
    }

    /// The last place `needle` stands in `text` (`range(of:options: .backwards)`: overlapping places count).
    private static func lastRange(of needle: String, in text: Substring) -> Range<Substring.Index>? {
        var start = text.endIndex
        while start > text.startIndex {
            start = text.index(before: start)
            if text[start...].hasPrefix(needle) { return start..<text.index(start, offsetBy: needle.count) }
        }
        return nil
    }
}

/// Turns corpus cases into Swift test files.
package struct TestExporter {
    package var registry: Registry
    package init(registry: Registry) { self.registry = registry }

    /// The tests of the cases under `corpus`, their first lines naming `identity` (default: the
    /// identity recorded in the folder; a folder without one is an error). A case that needs the scheduler (a
    /// concurrent step) is replayed through the harness (`GraphFuzzTest.replay`), its interleaving with it.
    package func export(corpus: String, identity given: String? = nil) throws(CorpusError) -> [ExportedTest] {
        let identity: String
        if let given { identity = given } else { identity = try recordedIdentity(corpus) }
        var tests: [ExportedTest] = []
        let corpusName = ExportedTest.corpusName(corpus)
        let prefix = URL(fileURLWithPath: corpus).standardizedFileURL.path + "/"
        for file in try Corpus.files(in: [corpus]) {
            let corpusCase = try Corpus.read(file)
            // A concurrent step's interleaving is the case's scheduler's: the test replays the case through the harness.
            let scheduled = FailureReport.needsScheduler(steps: corpusCase.steps, kind: corpusCase.kind)
            guard let target = registry.target(named: corpusCase.target) else {
                throw CorpusError(file: file, line: nil, message: "unknown target '\(corpusCase.target)'")
            }
            let record: CaseRecord
            // A crash or hang case's last step is described, not run: it would take this process down.
            let diesInProcess = corpusCase.kind == .crash || corpusCase.kind == .hang
            let machine = target.machine()
            switch machine.replay(corpusCase.config, corpusCase.steps, lastStepOnSystem: !diesInProcess) {
            case .success(let r): record = r
            case .failure(let error): throw CorpusError(file: file, line: corpusCase.line(ofStep: error.step), message: error.message)
            }
            let base = FileIO.deletingExtension(of: corpusCase.fileName)
            let name = SwiftTestRenderer.functionName(target: corpusCase.target, mutant: corpusCase.mutant, rule: corpusCase.rule,
                                                      hash: String(base.split(separator: "-").last ?? ""))
            let standardized = URL(fileURLWithPath: file).standardizedFileURL.path
            let relative = standardized.hasPrefix(prefix) ? String(standardized.dropFirst(prefix.count)) : FileIO.lastComponent(of: file)
            var source = ExportedTest.firstLine(corpusName: corpusName, relative: relative, identity: identity) + "\n"
            source += "// change the corpus and export again. "
            if diesInProcess {
                source += "Its last step \(corpusCase.kind == .crash ? "crashed" : "hung") the process \(corpusCase.mutant.map { "on mutant \($0)" } ?? "once")"
                source += "; the fixed production code must run it to the end.\n"
            } else {
                source += "It passes on production code"
                source += corpusCase.mutant.map { scheduled ? "; replayed on mutant \($0) it fails rule \(corpusCase.rule)"
                    : "; its last #expect fails on mutant \($0) (rule \(corpusCase.rule))" } ?? ""
                source += ".\n"
            }
            let imports = scheduled ? ["Testing", "GraphFuzzEngine", "GraphFuzzTesting"] + target.swiftImports : ["Testing"] + target.swiftImports
            for module in imports { source += "import \(module)\n" }
            source += "\n"
            let lines = scheduled ? SwiftTestRenderer.replayLines(subject: "Target.\(corpusCase.target)", config: corpusCase.config, steps: corpusCase.steps)
                : record.swiftLines
            source += SwiftTestRenderer.test(displayName: "\(corpusCase.target) \(corpusCase.rule): \(base)", functionName: name, lines: lines)
            tests.append(ExportedTest(fileName: "\(name).swift", source: source))
        }
        return tests
    }

    private func recordedIdentity(_ corpus: String) throws(CorpusError) -> String {
        let identity: String?
        do { identity = try CorpusIdentity.read(corpus) } catch { throw CorpusError(file: error.file, line: nil, message: "\(error.action): \(error.reason)") }
        guard let identity else {
            throw CorpusError(file: corpus, line: nil, message: "the corpus has no identity (\(CorpusIdentity.fileName)) yet: `graph-fuzz export-tests` gives it one")
        }
        return identity
    }
}
