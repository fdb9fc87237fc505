import Foundation
import GraphFuzzTesting
import GraphStore
import GraphStoreRules
import Testing

/// The new-user trial: the model files of a small public SwiftData app (github.com/emilyj4482/ToDoList_SwiftData at
/// a9cacb367b6e287509b1f7aefa5b92b1998157f4: Model/Group.swift, Task.swift, Important.swift) brought over with the
/// changes docs/guide.md lists, and two of its flows as its views write them: TaskEditView adds a task made with its
/// list (`Task(title:groups:)`), then inserts it; MainView deletes a list and leaves the save to autosave.
@Suite("trial: a SwiftData to-do app, checked with the guide alone")
struct ToDoListTrialTests {
    static func addTask(_ title: String, at date: Date, to group: Group) -> Task {
        let task = Task(title: title, timestamp: date, groups: [group])
        group.modelContext!.insert(task)
        return task
    }

    static func deleteList(_ group: Group) { group.modelContext!.delete(group) }

    static let date = Date(timeIntervalSinceReferenceDate: 0)
    // L1: a task added to a list is inserted into the list's context and is in the list.
    static let add = AppAction("addTask", rule: "L1", arguments: { args in try args.model(Group.self) },
                               effect: { group, graph in
                                   let task = graph.create(Task(title: "Milk", timestamp: date, groups: []))
                                   graph.insert(task, into: graph.context(of: group))
                                   graph.relate(task, \.groups, to: group)
                               },
                               perform: { group, app in addTask("Milk", at: date, to: try app[group]) })
    // L2: a deleted list is gone from the store, and its tasks with it.
    static let delete = AppAction("deleteList", rule: "L2", arguments: { args in try args.model(Group.self) },
                                  effect: { group, graph in
                                      let context = graph.context(of: group)
                                      graph.delete(group)
                                      graph.save(context)
                                  },
                                  perform: { group, app in deleteList(try app[group]) })

    @Test("a factory that relates before it inserts, and a deletion that never saves, are each found and shrunk to 3 steps at most",
          arguments: [(add, "L1"), (delete, "L2")])
    func trial(_ action: AppAction, rule: String) throws {
        let machine = try SchemaMachine(for: Group.self, Task.self, Important.self, name: "todo", actions: [action])
        var result: CheckResult?
        withKnownIssue("expected: the app's flow breaks its rule") {
            result = GraphFuzzTest.check(machine, name: "todo-\(action.name)", seed: 1, runs: 300)
        }
        let report = result?.description ?? ""
        #expect(!(result?.failedRules ?? []).isEmpty && Set(result?.failedRules ?? []) == [rule], "\(report)")
        let shrunk = report.split(separator: "\n").compactMap { line in line.firstRange(of: " → ").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) } }
        #expect(!shrunk.isEmpty && shrunk.allSatisfy { ($0 ?? 99) <= 3 }, "\(report)")
    }
}
