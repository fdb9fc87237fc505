import BooksTracker
import CSQLite
import Foundation
import GraphStore
import Testing

@Suite("A damaged or foreign store file is refused with a typed error")
struct CorruptStoreTests {
    /// A store with enough rows to span several pages, closed (its WAL checkpointed into the file).
    private func savedStore(_ path: String, works: Int = 150) throws {
        let container = try openStore(path)
        let context = ModelContext(container)
        for n in 0..<works { context.insert(Work(title: String(repeating: "t", count: 100) + "\(n)")) }
        try context.save()
        container.close()
    }

    private func refusal(_ path: String) -> StoreError? {
        do {
            try openStore(path).close()
            return nil
        } catch {
            return error
        }
    }

    @Test("An empty file is refused, not taken for a new store")
    func empty() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = try #require(refusal(path))
        #expect(error.kind == .emptyFile)
        #expect(error.path == path)
        #expect(error.description.contains("empty"))
    }

    @Test("A file cut inside its header, or short of the pages its header promises, is refused as truncated")
    func truncated() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        for cut in [50, 4096 * 3] {
            let path = scratch.file("cut\(cut).sqlite")
            try savedStore(path)
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size > cut)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: UInt64(cut))
            try handle.close()
            let error = try #require(refusal(path))
            #expect(error.kind == .truncated, "cut at \(cut): \(error)")
            #expect(error.message.contains(String(cut)))
        }
    }

    @Test("A file that is not SQLite is refused")
    func garbage() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("garbage.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })))
        #expect(refusal(path)?.kind == .notADatabase)
    }

    @Test("Damaged pages are found by SQLite's integrity check")
    func damagedPages() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("damaged.sqlite")
        try savedStore(path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // Scribble over the b-tree page headers of every page after the schema page.
        for page in stride(from: 4096, to: bytes.count, by: 4096) {
            for offset in 0..<12 { bytes[page + offset] = 0xA5 }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(refusal(path))
        #expect(error.kind == .corrupt, "\(error)")
    }

    @Test("An SQLite database that is not a GraphStore store is refused")
    func foreign() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("foreign.sqlite")
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let error = try #require(refusal(path))
        #expect(error.kind == .notAGraphStore)
        #expect(error.message.contains("notes"))
    }

    @Test("A store made for another schema is refused, naming the entity that differs")
    func otherSchema() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("other.sqlite")
        try savedStore(path, works: 1)
        var entities = BooksTrackerSchema.schema(.local).entities
        entities[0].relationships[0].deleteRule = .cascade
        entities[0].attributes.append(AttributeSchema("subtitle", .string, optional: true))
        let schema = try Schema(entities: entities)
        do {
            _ = try ModelContainer(schema: schema, path: path)
            Issue.record("a store of another schema was opened")
        } catch {
            #expect(error.kind == .schemaMismatch)
            #expect(error.message.contains("subtitle"))
        }
        // Delete rules and optionality do not change the tables: the CloudKit configuration opens a local store.
        let cloud = try openStore(path, .cloudKit)
        #expect(cloud.rows.count == 1)
        cloud.close()
    }

    @Test("A new store is created whole: no file is left half-made, and it opens again")
    func creation() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("new.sqlite")
        let container = try openStore(path)
        #expect(container.rows.isEmpty)
        #expect(container.path == path)
        container.close()
        #expect(!FileManager.default.fileExists(atPath: path + ".creating"))
        let again = try openStore(path)
        #expect(again.launch == 2)
        again.close()
    }
}
