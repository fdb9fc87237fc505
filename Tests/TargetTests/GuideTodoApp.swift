// BEGIN GUIDE: todo app
import GraphStore  // was: import SwiftData

final class Project: PersistentModel {  // was: @Model final class Project {
    @Attribute var name: String = "Inbox"
    @Relationship(deleteRule: .cascade, inverse: \Todo.project) var todos: [Todo] = []

    init(name: String) { self.name = name }
    required init() {}
}

final class Todo: PersistentModel {
    @Attribute(.length(1...80)) var title: String = ""
    @Attribute var isDone: Bool = false
    @Relationship var project: Project? = nil
    @Relationship(inverse: \Tag.todos) var tags: [Tag] = []

    init(title: String) { self.title = title }
    required init() {}
}

final class Tag: PersistentModel {
    @Attribute var label: String? = nil
    @Relationship var todos: [Todo] = []
}

/// The app's factory (planted bug: it relates the new to-do before inserting it).
func addTodo(_ title: String, to project: Project) -> Todo {
    let todo = Todo(title: title)
    todo.project = project
    project.modelContext!.insert(todo)
    return todo
}
// END GUIDE: todo app
