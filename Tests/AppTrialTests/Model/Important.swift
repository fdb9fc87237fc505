// Model/Important.swift of github.com/emilyj4482/ToDoList_SwiftData at a9cacb367b6e287509b1f7aefa5b92b1998157f4, brought
// over with the changes docs/guide.md lists (import, base class, @Attribute, @Relationship, required init).

import Foundation
import GraphStore

final class Important: PersistentModel {
    @Attribute var name: String = "Important"
    @Relationship var tasks: [Task]
    
    init(name: String = "Important", tasks: [Task] = []) {
        self.name = name
        self.tasks = tasks
    }

    required init() {}
}
