import GraphFuzzEngine
import GraphFuzzTesting
import GraphStore
import Foundation
import GraphStoreRules
import Testing

/// The guide's example, as printed there: a to-do app's models (Project → Todo cascade, Todo ↔ Tag nullify), the
/// rules G1–G28 checked on them, and the app's own factory as an action under its own rule (T1). The factory is
/// planted with the bug of relating the new to-do before inserting it; the check finds it and shrinks it. Then each
/// mistake an app action can make, reported naming the action, and what a check warns of.
@Suite("guide: your own models")
struct TodoExampleTests {
    @Test("a factory that relates before it inserts is found under the app's rule and shrunk")
    func todo() throws {
        var result: CheckResult?
        withKnownIssue("expected: the planted factory relates before it inserts (not a bug)") {
// BEGIN GUIDE: todo machine
            // T1: a new to-do in a project of a context is inserted there, then related to the project.
            let addTodoAction = AppAction("addTodo", rule: "T1", arguments: { args in try args.model(Project.self) },
                                          effect: { project, graph in
                                              let todo = graph.create(Todo(title: "Buy milk"))
                                              graph.insert(todo, into: graph.context(of: project))
                                              graph.relate(todo, \.project, to: project)
                                          },
                                          perform: { project, app in addTodo("Buy milk", to: try app[project]) })
            let machine = try SchemaMachine(for: Project.self, Todo.self, Tag.self, name: "todo", actions: [addTodoAction])
            result = GraphFuzzTest.check(machine, name: "todo", seed: 1, runs: 300)
// END GUIDE: todo machine
        }
        #expect(Set(result?.failedRules ?? []) == ["T1"], "\(result?.description ?? "")")
        #expect(result?.description.contains("→ 2 steps") == true, "\(result?.description ?? "")")
        #expect(result?.description.contains("v2 = addTodo(project: v1)") == true, "\(result?.description ?? "")")
        // The guide prints the first failure's report; every line of it is as the check recorded it.
        let guide = try String(contentsOfFile: GuideSnippetTests.root + "/docs/guide.md", encoding: .utf8)
        let printed = guide.components(separatedBy: "```\nFAILURE todo — rule T1, trap\n")[1].components(separatedBy: "\n```")[0]
        for line in printed.split(separator: "\n") {
            #expect(result?.description.contains(line) == true, "docs/guide.md's report line is not the check's: \(line)")
        }
    }

    @Test("the CloudKit check (G21) runs on a user's models: models that must mirror to CloudKit fail naming each violation")
    func cloudKitCheck() throws {
        var result: CheckResult?
        withKnownIssue("expected: Todo.project would need an inverse, Todo.title a default; the deny rule is refused") {
// BEGIN GUIDE: cloudkit
            final class Shelf: PersistentModel {
                @Attribute var name: String
                @Relationship(deleteRule: .deny) var books: [Book] = []
                required init() {}
            }
            final class Book: PersistentModel {
                @Attribute var title: String? = nil
            }
            result = GraphFuzzTest.check(try SchemaMachine(for: Shelf.self, Book.self, name: "shelves", cloudKit: true),
                                         name: "shelves", seed: 1, runs: 20)
// END GUIDE: cloudkit
        }
        #expect(result?.failedRules.first == "G21")
        let report = result?.description ?? ""
        #expect(report.contains("the shelves schema cannot be mirrored to CloudKit"), "\(report)")
        #expect(report.contains("denyDeleteRule: Shelf.books") && report.contains("requiredAttributeWithoutDefault: Shelf.name")
                && report.contains("relationshipWithoutInverse: Shelf.books"), "\(report)")
    }

    /// Checks `action` beside the store's actions and returns what the check recorded.
    private func check(_ action: AppAction, runs: Int = 100) throws -> CheckResult? {
        var result: CheckResult?
        withKnownIssue("expected: the action is a mistake of the test, reported as such") {
            result = GraphFuzzTest.check(try SchemaMachine(for: Project.self, Todo.self, Tag.self, name: "todo", actions: [action]),
                                         name: "todo", seed: 1, runs: runs)
        }
        return result
    }

    @Test("a wrong reference in a description is reported naming the action, the test process alive")
    func wrongReference() throws {
        let result = try check(AppAction("tagProject", rule: "T2", arguments: { args in (try args.model(Todo.self), try args.model(Project.self)) },
                                         effect: { models, graph in graph.relate(models.0, "tags", to: models.1) },
                                         perform: { _, _ in }))
        #expect(result?.passed == false)
        #expect(result?.description.contains("app action 'tagProject': its description relates v") == true, "\(result?.description ?? "")")
        #expect(result?.description.contains("through tags, which holds Tags") == true, "\(result?.description ?? "")")
    }

    @Test("a description for a state the action should not run in is reported naming the action and the filter to use")
    func stateItShouldNotRunIn() throws {
        let result = try check(AppAction("archive", rule: "T3", arguments: { args in try args.model(Project.self, .any) },
                                         effect: { project, graph in graph.save(graph.context(of: project)) },
                                         perform: { project, app in try app[project].modelContext?.save() }))
        #expect(result?.description.contains("app action 'archive': its description asks for the context of v") == true, "\(result?.description ?? "")")
        #expect(result?.description.contains("draw it with `.inContext`") == true, "\(result?.description ?? "")")
    }

    @Test("code that makes a model its description does not create is reported naming the missing step")
    func missingStep() throws {
        let result = try check(AppAction("quickTodo", rule: "T4", arguments: { args in try args.model(Project.self) },
                                         effect: { project, graph in _ = graph.context(of: project) },
                                         perform: { project, app in
                                             let todo = Todo(title: "Call")
                                             try app[project].modelContext?.insert(todo)
                                             return todo
                                         }))
        #expect(result?.description.contains("app action 'quickTodo': its code made a Todo that its description does not create; add `graph.create`") == true,
                "\(result?.description ?? "")")
    }

    @Test("an app action's failure is saved to a corpus and replays, failing again while the bug is there")
    func corpus() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-corpus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // T5: a tag is never left without its label (planted bug: the app clears it).
        let clear = AppAction("clearLabel", rule: "T5", arguments: { args in try args.model(Tag.self) },
                              effect: { tag, graph in graph.set(tag, \.label, to: "urgent") },
                              perform: { tag, app in try app[tag].label = nil })
        let machine = try SchemaMachine(for: Project.self, Todo.self, Tag.self, name: "todo", actions: [clear])
        var found: CheckResult?, replayed: CheckResult?
        withKnownIssue("expected: the planted bug, then its saved case failing again") {
            found = GraphFuzzTest.check(machine, name: "todo-corpus", seed: 1, runs: 100, corpus: folder)
            replayed = GraphFuzzTest.check(machine, name: "todo-corpus", seed: 2, runs: 1, corpus: folder)
        }
        #expect(found?.failedRules == ["T5"], "\(found?.description ?? "")")
        #expect(replayed?.replayed == 1, "\(replayed?.description ?? "")")
    }

    @Test("a check warns of an app action that never ran and of its rule, never exercised, as the command line does")
    func neverExercised() throws {
        let never = AppAction("neverTodo", rule: "T9", arguments: { args in try args.require(false) }, effect: { _, _ in }, perform: { _, _ in })
        var result: CheckResult?
        withKnownIssue("expected: warnings of an action and a rule never exercised", isIntermittent: true) {
            result = GraphFuzzTest.check(try SchemaMachine(for: Project.self, Todo.self, Tag.self, name: "todo", actions: [never]),
                                         name: "todo-never", seed: 1, runs: 30)
        }
        #expect(result?.passed == true, "\(result?.description ?? "")")
        #expect(result?.warnings.contains("todo-never: action neverTodo never ran in 30 cases") == true, "\(result?.warnings ?? [])")
        #expect(result?.warnings.contains("todo-never: rule T9 was never exercised in 30 cases") == true, "\(result?.warnings ?? [])")
    }
}
