import Foundation
import GraphFuzzEngine
import GraphFuzzTesting
import Testing

// docs/guide.md prints the code between the markers as it is here; GuideTests checks that it does.
// BEGIN GUIDE: first machine
/// A document the app opens.
final class Document {
    let title: String
    init(title: String) { self.title = title }
}

/// Keeps the `capacity` most recently opened documents, most recent first, each once.
struct RecentDocuments {
    let capacity: Int
    private(set) var documents: [Document] = []

    mutating func open(_ document: Document) {
        if documents.count == capacity { documents.removeLast() }  // evicts even when `document` is listed
        documents.removeAll { $0 === document }
        documents.insert(document, at: 0)
    }
}

/// The rules, written from what the feature promises rather than from the code.
struct RecentDocumentsMachine: StateMachine {
    struct Config: Sendable { var capacity: Int }
    /// The specification: the capacity, the documents made so far, the list as refs to them.
    struct Model { var capacity: Int, documents = Bundle<String>(), recent: [Ref] = [] }
    struct System { var list: RecentDocuments, documents = Bundle<Document>() }

    func makeConfig(_ args: inout Arguments) -> Config { Config(capacity: args.int("capacity", in: 1...3)) }
    func makeModel(_ config: Config) -> Model { Model(capacity: config.capacity) }
    func makeSystem(_ config: Config) -> System { System(list: RecentDocuments(capacity: config.capacity)) }

    var actions: [Action<Self>] {
        [Action("make", arguments: { args, _ in args.result() },
                predict: { document, model in
                    model.documents.add(document, "doc \(document)")
                    return Prediction("doc \(document)", rule: "made")
                },
                perform: { document, system in
                    system.documents.add(document, Document(title: "doc \(document)"))
                    return "doc \(document)"
                }),
         Action("open", arguments: { args, model in try args.ref("document", from: model.documents) },
                predict: { document, model in
                    model.recent = Array(([document] + model.recent.filter { $0 != document }).prefix(model.capacity))
                    return Prediction(model.recent.map { model.documents[$0]! }, rule: "most recent first, each once")
                },
                perform: { document, system in
                    system.list.open(system.documents[document]!)
                    return system.list.documents.map(\.title)
                })]
    }

    var invariants: [Invariant<Self>] {
        [Invariant("within capacity") { model, system in
            system.list.documents.count <= model.capacity ? nil : "\(system.list.documents.count) documents listed"
        }]
    }
}
// END GUIDE: first machine

@Suite("the guide's first machine")
struct GuideFirstMachine {
    /// The guide's test is `GraphFuzzTest.check(RecentDocumentsMachine(), name: "recent documents")`; here its
    /// failure is expected, and its shrunk counterexample checked: two documents made and opened, the
    /// most recent opened again.
    @Test func recentDocuments() throws {
        var result: CheckResult?
        withKnownIssue("expected: the guide's planted eviction bug is found") {
            result = GraphFuzzTest.check(RecentDocumentsMachine(), name: "recent documents")
        }
        let check = try #require(result)
        #expect(check.failedRules == ["most recent first, each once"])
        let record = try #require(check.failures.first?.counterexample)
        #expect(record.steps.map(\.description) == ["v1 = make()", "v2 = make()", "open(document: v1)", "open(document: v2)", "open(document: v2)"])
        // The guide prints this report; every line but the timing is as the check recorded it.
        let guide = try String(contentsOfFile: GuideTests.root + "/docs/guide.md", encoding: .utf8)
        let report = try #require(check.reports.first).text
        for line in report.split(separator: "\n") where !line.contains("time:") {
            #expect(guide.contains(line), "docs/guide.md's report lacks: \(line)")
        }
    }

    /// Its name and rule are sentences: the saved case's file name keeps their letters and digits, a dash for the rest.
    @Test func savedCaseFileName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-fuzz-guide-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var result: CheckResult?
        withKnownIssue("expected: the guide's planted eviction bug is found") {
            result = GraphFuzzTest.check(RecentDocumentsMachine(), name: "recent documents", runs: 300, corpus: folder)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".case") }
        #expect(names.count == 1, "\(names)")
        let name = try #require(names.first)
        #expect(name.range(of: "^recent-documents-most-recent-first-each-once-[0-9a-f]{10}[.]case$", options: .regularExpression) != nil, "\(name)")
        #expect(result?.reports.first?.corpusFile == folder + "/" + name)
    }
}
