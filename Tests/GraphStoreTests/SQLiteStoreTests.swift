import BooksTracker
import Foundation
@testable import GraphStore
import Testing

@Suite("SQLite store: rows, identifiers, transactions")
struct SQLiteStoreTests {
    @Test("Every kind of value and both kinds of relationship read back as saved, in order")
    func roundTrip() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let container = try openStore(scratch.file("a.sqlite"))
        let context = ModelContext(container)
        let work = Work(title: "It's \"quoted\" \u{0}nul ✓", firstPublicationYear: 1965, subjectTags: ["b", "", "a'b"],
                        synthetic: true, googleBooksVolumeIDs: [])
        context.insert(work)
        let authors = [Author(name: "Z"), Author(name: "A"), Author(name: "M")]
        for author in authors { work.authors.append(author) }
        let edition = Edition(isbn: nil, pageCount: 12)
        context.insert(edition)
        edition.work = work
        try context.save()
        let rows = container.rows
        #expect(rows.count == 5)
        let id = try #require(work.persistentModelID)
        #expect(id.description == "x-coredata://store/Work/p1")
        let row = try #require(rows[id])
        #expect(row.values == work.entity.attributes.indices.map { work.value(at: $0) })
        #expect(row.links[column("Work", "authors")] == authors.map(\.persistentModelID!))
        #expect(row.links[column("Work", "editions")] == [edition.persistentModelID!])
        #expect(rows[edition.persistentModelID!]?.links[column("Edition", "work")] == [id])
        #expect(rows[edition.persistentModelID!]?.values[column("Edition", "isbn")] == .null)
        #expect(rows[edition.persistentModelID!]?.values[column("Edition", "pageCount")] == .int(12))
        container.close()
    }

    @Test("A store holds the same rows as the in-memory backend after the same saves")
    func sameRowsAsMemory() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var snapshots: [[PersistentIdentifier: Row]] = []
        for backend in Backend.allCases {
            let container = try backend.container(in: scratch)
            let context = ModelContext(container)
            let works = (0..<4).map { Work(title: "W\($0)") }
            for work in works { context.insert(work) }
            let author = Author(name: "A")
            context.insert(author)
            for work in works { author.works.append(work) }
            try context.save()
            context.delete(works[1])
            works[2].title = "changed"
            author.works.removeAll { $0 === works[3] }
            try context.save()
            snapshots.append(container.rows)
            container.close()
        }
        #expect(snapshots[0] == snapshots[1])
        #expect(snapshots[0].count == 4)
    }

    @Test("A save is one transaction: interrupted at any write operation, the store is as before the save")
    func interruptedSaveLeavesNothing() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        for backend in Backend.allCases {
            var interrupted = 0
            for point in 0..<30 {
                let container = try backend.container(in: scratch, name: "i\(point).sqlite")
                let context = ModelContext(container)
                context.insert(Work(title: "kept"))
                try context.save()
                let before = container.rows
                let done = container.writeOperations
                let work = Work(title: "lost")
                context.insert(work)
                let author = Author(name: "A")
                context.insert(author)
                work.authors.append(author)
                container.writeInterruption = WriteInterruption(afterOperations: done + point)
                do {
                    try context.save()
                    // The save needed fewer operations than `point`: every point inside it has been tried.
                    #expect(container.writeOperations - done == point)
                    container.close()
                    break
                } catch {
                    #expect(error.storeFailure?.kind == .interrupted)
                }
                interrupted += 1
                #expect(!container.isOpen)
                #expect(work.persistentModelID?.isTemporary == true, "a failed save keeps the pending insert")
                let reopened = try container.relaunch()
                #expect(reopened.rows == before, "\(backend) interrupted after \(point) operations")
                reopened.close()
            }
            #expect(interrupted >= 5, "\(backend): a save of two rows takes several write operations")
        }
    }

    @Test("The faulty groupings leave part of a save when interrupted, the same way on both backends",
          arguments: [SaveTransactions.perRow, .rowsThenRelationships])
    func faultyGroupings(_ grouping: SaveTransactions) throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var partial: [String: Int] = [:]
        var statesByBackend: [[[PersistentIdentifier: Row]]] = []
        for backend in Backend.allCases {
            var states: [[PersistentIdentifier: Row]] = []
            for point in 1..<14 {
                let container = try backend.container(in: scratch, name: "g\(point).sqlite")
                container.saveTransactions = grouping
                let context = ModelContext(container)
                let work = Work(title: "W")
                context.insert(work)
                for name in ["A", "B"] {
                    let author = Author(name: name)
                    context.insert(author)
                    work.authors.append(author)
                }
                container.writeInterruption = WriteInterruption(afterOperations: point)
                _ = try? context.save()
                let reopened = try container.relaunch()
                let rows = reopened.rows
                states.append(rows)
                if !rows.isEmpty, rows.count < 3 || rows.values.contains(where: { $0.links.allSatisfy(\.isEmpty) }) {
                    partial[backend.rawValue, default: 0] += 1
                }
                reopened.close()
            }
            statesByBackend.append(states)
        }
        #expect(statesByBackend[0] == statesByBackend[1], "both backends are left in the same state at every point")
        #expect((partial["memory"] ?? 0) > 0, "the \(grouping) grouping must be able to leave a partial save")
        #expect(partial["memory"] == partial["sqlite"])
    }

    @Test("The memory backend's direct write counts the operations the plan would perform, in every grouping")
    func operationCounts() throws {
        let id = { (n: Int) in PersistentIdentifier(entityName: "Work", kind: .permanent, storeIdentifier: "store", number: n) }
        let plans = [
            SavePlan(),
            SavePlan(deletions: [(id(1), 0)], rows: [], counters: nil),
            SavePlan(deletions: [], rows: [(id(2), 0, [], [[], [id(3)], []])], counters: [2, 0, 0, 0]),
            SavePlan(deletions: [(id(1), 0), (id(4), 0)], rows: [(id(2), 0, [], [[], [], []]), (id(5), 2, [], [[id(2)]])], counters: [5, 0, 0, 0]),
        ]
        for plan in plans {
            for grouping in SaveTransactions.allCases {
                #expect(plan.operationCount(grouping) == plan.operations(grouping).count, "\(grouping)")
            }
        }
    }

    @Test("Permanent numbers continue across a relaunch; the store identifier is the file's")
    func countersSurviveRelaunch() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let path = scratch.file("c.sqlite")
        let first = try ModelContainer(schema: BooksTrackerSchema.schema(.local),
                                       configuration: ModelConfiguration(trapPolicy: .record, storeIdentifier: "STORE-1"), path: path)
        let context = ModelContext(first)
        context.insert(Work(title: "one"))
        context.insert(Work(title: "two"))
        try context.save()
        first.close()
        let second = try openStore(path)
        #expect(second.storeIdentifier == "STORE-1")
        #expect(second.launch == 2)
        let next = ModelContext(second)
        let work = Work(title: "three")
        next.insert(work)
        try next.save()
        #expect(work.persistentModelID?.description == "x-coredata://STORE-1/Work/p3")
        second.close()
    }
}
