import GraphFuzzEngine
import GraphFuzzTesting
import GraphSpec
import GraphStore
import GraphStoreRules
import Testing

/// The guide's example, as printed there: a to-do app's schema (Project → Task cascade, Task ↔ Tag nullify), the
/// generic rules G1–G28 checked on it, and the app's own factory as an action under its own rule (T1). The factory
/// is planted with the bug of relating the new task before inserting it; the check finds it and shrinks it.
@Suite("guide: your own schema")
struct TodoExampleTests {
    @Test("a factory that relates before it inserts is found under the app's rule and shrunk")
    func todo() throws {
// BEGIN GUIDE: todo
        let schema = try Schema(entities: [
            EntitySchema(name: "Project", attributes: [AttributeSchema("name", .string, optional: false, default: .string("Inbox"))],
                         relationships: [RelationshipSchema("tasks", to: "Task", toMany: true, inverse: "project", deleteRule: .cascade)]),
            EntitySchema(name: "Task", attributes: [AttributeSchema("title", .string, optional: false, default: .string("todo"), length: 1...80)],
                         relationships: [RelationshipSchema("project", to: "Project", toMany: false, inverse: "tasks"),
                                         RelationshipSchema("tags", to: "Tag", toMany: true, inverse: "tasks")]),
            EntitySchema(name: "Tag", attributes: [AttributeSchema("label", .string, optional: true)],
                         relationships: [RelationshipSchema("tasks", to: "Task", toMany: true, inverse: "tags")]),
        ])
        // The app's factory (planted bug: it relates the new task before inserting it).
        @Sendable func newTask(in project: PersistentModel) -> PersistentModel {
            let task = schema.newModel("Task")!
            task.relate("project", to: project)
            project.modelContext!.insert(task)
            return task
        }
        // T1: a new task in a project of a context never traps; it gets a temporary identifier.
        let machine = SchemaMachine(schema: schema, name: "todo", actions: { [
            Action("addTask", when: { !$0.crashed }, arguments: { args, model in
                (args.result(), try args.ref("project", among: model.refs.count) { model.refs[$0] >= 0
                    && model.objects[model.refs[$0]].entity == 0 && model.objects[model.refs[$0]].context >= 0 })
            }, predict: { (command: (task: Ref, project: Ref), model: inout GraphModel) -> Prediction<GraphObservation> in
                let project = model.refs[command.project.index], task = model.newObject(1)
                model.bind(command.task.index, task)
                if let trap = model.insert(task, model.objects[project].context) ?? model.relate(task, 0, project) {
                    model.crash()
                    return Prediction(.trap(trap.name.rawValue), rule: "T1")
                }
                return Prediction(.identifier(model.kind(model.objects[task].id)), rule: "T1")
            }, perform: { command, system -> GraphObservation in
                system.observe({ .trap($0) }) { system in
                    let task = newTask(in: system.model(command.project))
                    system.bind(task)
                    return .identifier(SchemaSystem.kind(task.persistentModelID))
                }
            }),
        ] })
// END GUIDE: todo
        var result: CheckResult?
        withKnownIssue("expected: the planted factory relates before it inserts (not a bug)") {
            result = GraphFuzzTest.check(machine, name: "todo", seed: 1, runs: 300)
        }
        #expect(result?.failedRules.first == "T1")
        #expect(result?.description.contains("→ 2 steps") == true, "\(result?.description ?? "")")
    }

    @Test("the CloudKit check (G21) runs on a user's schema: a schema that must mirror to CloudKit fails naming each violation")
    func cloudKitCheck() throws {
        let projects = EntitySchema(name: "Project", attributes: [AttributeSchema("name", .string, optional: false)],
                                    relationships: [RelationshipSchema("tasks", to: "Task", toMany: true, inverse: "project", deleteRule: .deny)])
        let tasks = EntitySchema(name: "Task", attributes: [AttributeSchema("title", .string, optional: true)],
                                 relationships: [RelationshipSchema("project", to: "Project", toMany: false, inverse: "tasks")])
        let schema = try Schema(entities: [projects, tasks])
        var result: CheckResult?
        withKnownIssue("expected: the schema has a deny rule and a required attribute without a default") {
            result = GraphFuzzTest.check(SchemaMachine(schema: schema, name: "todo", cloudKit: true), name: "todo-cloudkit", seed: 1, runs: 20)
        }
        #expect(result?.failedRules.first == "G21")
        let report = result?.description ?? ""
        #expect(report.contains("the todo schema cannot be mirrored to CloudKit"), "\(report)")
        #expect(report.contains("Project.tasks") && report.contains("Project.name"), "\(report)")
        // Without the requirement the check still runs on every case, and the same schema passes.
        let relaxed = GraphFuzzTest.check(SchemaMachine(schema: schema, name: "todo"), name: "todo-local", seed: 1, runs: 20)
        #expect(relaxed.failedRules.isEmpty, "\(relaxed)")
    }
}
