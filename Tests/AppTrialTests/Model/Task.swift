// Model/Task.swift of github.com/emilyj4482/ToDoList_SwiftData at a9cacb367b6e287509b1f7aefa5b92b1998157f4, brought over
// with the changes docs/guide.md lists (import, base class, @Attribute, `let` → `var`, initial value, required init).

import Foundation
import GraphStore

final class Task: PersistentModel {
    @Attribute var title: String
    @Attribute var isDone: Bool
    @Attribute var isImportant: Bool
    // group.tasks array에서 task가 추가된 순이 아닌 무작위로 정렬되는 것을 개선하기 위한 프로퍼티
    @Attribute var timestamp: Date
    
    // many to many relationship을 위해 task 또한 group을 array 형태로 가져야 함.
    @Relationship(deleteRule: .nullify) var groups: [Group]? = nil
    
    init(title: String, isDone: Bool = false, isImportant: Bool = false, timestamp: Date = .now, groups: [Group]) {
        self.title = title
        self.isDone = isDone
        self.isImportant = isImportant
        self.timestamp = timestamp
        self.groups = groups
    }

    required init() {}
}
