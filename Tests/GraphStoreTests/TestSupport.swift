import BooksTracker
import GraphStore

/// A recording container for the BooksTracker schema.
func makeContainer(_ configuration: BooksConfiguration = .local, behavior: StoreBehavior = StoreBehavior()) -> ModelContainer {
    BooksTrackerSchema.container(configuration, store: ModelConfiguration(trapPolicy: .record, behavior: behavior))
}

/// The index of attribute or relationship `name` of `entity` in the BooksTracker schema: a saved row's column.
func column(_ entity: String, _ name: String) -> Int {
    let declared = BooksTrackerSchema.schema(.local).entities.first { $0.name == entity }!
    return declared.attributeIndex(named: name) ?? declared.relationshipIndex(named: name)!
}

import Foundation

/// A fresh directory for store files, removed by `remove()`: on tmpfs when the machine has one (keeps the
/// on-disk tests fast; SQLite's settings are the same), else in the temporary directory.
struct ScratchDirectory {
    let path: String

    init() {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        path = base + "/graphstore-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A recording container for the BooksTracker schema on an SQLite file.
func openStore(_ path: String, _ configuration: BooksConfiguration = .local, behavior: StoreBehavior = StoreBehavior()) throws(StoreError) -> ModelContainer {
    try ModelContainer(schema: BooksTrackerSchema.schema(configuration),
                       configuration: ModelConfiguration(trapPolicy: .record, behavior: behavior), path: path)
}

/// The two backends, for tests that run on both.
enum Backend: String, CaseIterable, Sendable {
    case memory, sqlite

    /// A new, empty recording container on this backend (files in `scratch`).
    func container(in scratch: ScratchDirectory, name: String = "store.sqlite", behavior: StoreBehavior = StoreBehavior()) throws -> ModelContainer {
        switch self {
        case .memory: return makeContainer(behavior: behavior)
        case .sqlite: return try openStore(scratch.file(name), behavior: behavior)
        }
    }
}
