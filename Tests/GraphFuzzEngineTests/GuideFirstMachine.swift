import Foundation
import GraphFuzzEngine
import GraphFuzzTesting
import Testing

// docs/guide.md prints the code between the markers as it is here; GuideTests checks that it does.
// BEGIN GUIDE: first machine
/// Keeps the `capacity` most recently opened documents, most recent first, each once.
struct RecentDocuments {
    let capacity: Int
    private(set) var names: [String] = []

    mutating func open(_ name: String) {
        if names.count == capacity { names.removeLast() }  // evicts even when `name` is already listed
        names.removeAll { $0 == name }
        names.insert(name, at: 0)
    }
}

/// The rule, written from what the feature promises rather than from the code.
struct RecentDocumentsMachine: StateMachine {
    struct Config: Sendable { var capacity: Int }
    struct Model { var capacity: Int, names: [String] = [] }
    static let documents = ["a.txt", "b.txt", "c.txt", "d.txt"]

    func makeConfig(_ args: inout Arguments) -> Config { Config(capacity: args.int("capacity", in: 1...3)) }
    func makeModel(_ config: Config) -> Model { Model(capacity: config.capacity) }
    func makeSystem(_ config: Config) -> RecentDocuments { RecentDocuments(capacity: config.capacity) }

    var actions: [Action<Self>] {
        [Action("open", arguments: { args, _ in Self.documents[args.name("name", from: Self.documents)] },
                predict: { name, model in
                    model.names = Array(([name] + model.names.filter { $0 != name }).prefix(model.capacity))
                    return Prediction(model.names, rule: "most recent first, each once")
                },
                perform: { name, list in
                    list.open(name)
                    return list.names
                })]
    }
}
// END GUIDE: first machine

@Suite("the guide's first machine")
struct GuideFirstMachine {
    /// The guide's test is `GraphFuzzTest.check(RecentDocumentsMachine(), name: "recent documents")`; here its
    /// failure is expected, and its shrunk counterexample checked: a list of two filled, then its first name opened again.
    @Test func recentDocuments() throws {
        var result: CheckResult?
        withKnownIssue("expected: the guide's planted eviction bug is found") {
            result = GraphFuzzTest.check(RecentDocumentsMachine(), name: "recent documents")
        }
        let check = try #require(result)
        #expect(check.failedRules == ["most recent first, each once"])
        let record = try #require(check.failures.first?.result.counterexample)
        #expect(record.steps.map(\.description) == [#"open(name: "a.txt")"#, #"open(name: "b.txt")"#, #"open(name: "b.txt")"#])
        // The guide prints this report; every line but the timing is as the check recorded it.
        let guide = try String(contentsOfFile: GuideTests.root + "/docs/guide.md", encoding: .utf8)
        let report = try #require(check.reports.first).text
        for line in report.split(separator: "\n") where !line.contains("time:") {
            #expect(guide.contains(line), "docs/guide.md's report lacks: \(line)")
        }
    }
}
