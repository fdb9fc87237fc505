// Model/Group.swift of github.com/emilyj4482/ToDoList_SwiftData at a9cacb367b6e287509b1f7aefa5b92b1998157f4, brought over
// with the changes docs/guide.md lists (import, base class, @Attribute, initial value, required init).

import Foundation
import GraphStore

final class Group: PersistentModel {
    @Attribute var name: String
    
    @Relationship(deleteRule: .cascade, inverse: \Task.groups) var tasks: [Task] = []
    
    init(name: String = "", tasks: [Task] = []) {
        self.name = name
        self.tasks = tasks
    }

    required init() {}
}
