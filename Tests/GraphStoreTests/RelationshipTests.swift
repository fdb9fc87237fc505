import BooksTracker
import GraphStore
import Testing

@Suite("Relationships and insert: R8–R11")
struct RelationshipTests {
    @Test("Inserting a root inserts its new graph (R8); inserting again traps (R9)")
    func graphInsert() {
        let container = makeContainer()
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        let edition = Edition(isbn: "1")
        edition.work = work
        context.insert(work)
        #expect(edition.modelContext === context)
        #expect(container.traps.isEmpty)
        context.insert(edition)
        #expect(container.traps.map(\.code) == [.duplicateRegistration])
        #expect(container.traps[0].message.hasPrefix("Duplicate registration attempt for object with id"))
    }

    @Test("Linking a new model to a registered one traps or auto-inserts (R10)", arguments: StoreBehavior.NewModelLink.allCases)
    func newToRegistered(_ mode: StoreBehavior.NewModelLink) {
        let container = makeContainer(behavior: StoreBehavior(newModelLink: mode))
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let entry = UserLibraryEntry()
        entry.work = work
        switch mode {
        case .trap:
            #expect(container.traps.map(\.code) == [.crossContextRelationship])
            #expect(container.traps[0].message.contains("Illegal attempt to establish a relationship 'work' between objects in different contexts"))
            #expect(entry.work == nil)
            #expect(work.userLibraryEntries.isEmpty)
        case .autoInsert:
            #expect(container.traps.isEmpty)
            #expect(entry.modelContext === context)
            #expect(work.userLibraryEntries.count == 1)
        }
    }

    @Test("Linking models of two contexts traps")
    func twoContexts() throws {
        let container = makeContainer()
        let first = ModelContext(container), second = ModelContext(container)
        let work = Work(title: "Dune")
        first.insert(work)
        let edition = Edition()
        second.insert(edition)
        edition.work = work
        #expect(container.traps.map(\.code) == [.crossContextRelationship])
    }

    @Test("Inverses are maintained (R11), and a to-one move leaves the old inverse")
    func inverses() {
        let container = makeContainer()
        let context = ModelContext(container)
        let a = Work(title: "A"), b = Work(title: "B")
        context.insert(a)
        context.insert(b)
        let edition = Edition()
        context.insert(edition)
        edition.work = a
        #expect(a.editions.count == 1)
        b.editions = [edition]
        #expect(edition.work === b)
        #expect(a.editions.isEmpty)
        let author = Author(name: "X")
        context.insert(author)
        author.works = [a, b]
        #expect(a.authors.count == 1 && b.authors.count == 1)
    }

    @Test("Without inverse maintenance (a store fault) the other side stays empty")
    func noInverse() {
        let container = makeContainer(behavior: StoreBehavior(faults: [.noInverseMaintenance]))
        let context = ModelContext(container)
        let work = Work(title: "A")
        context.insert(work)
        let entry = UserLibraryEntry.createWishlistEntry(for: work, context: context)
        #expect(entry.work === work)
        #expect(work.userLibraryEntries.isEmpty)
    }
}
