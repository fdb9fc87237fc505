import BooksTracker
import GraphStore
import Testing

@Suite("Relaunch: a container closed and opened again on the same store")
struct RelaunchTests {
    @Test("Registered models are gone, permanent identifiers resolve to the same rows, unsaved changes are lost",
          arguments: Backend.allCases)
    func relaunch(_ backend: Backend) throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let container = try backend.container(in: scratch)
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let author = Author(name: "Herbert")
        context.insert(author)
        work.authors.append(author)
        try context.save()
        let workID = try #require(work.persistentModelID)
        let authorID = try #require(author.persistentModelID)
        work.title = "unsaved title"
        let unsaved = Work(title: "never saved")
        context.insert(unsaved)
        let unsavedID = try #require(unsaved.persistentModelID)
        let rows = container.rows

        let relaunched = try container.relaunch()
        #expect(!container.isOpen)
        #expect(relaunched.isOpen)
        #expect(relaunched.rows == rows, "the saved rows, and only they, survive")
        let fresh = ModelContext(relaunched)
        #expect(fresh.registeredModel(for: workID) == nil, "no model is registered after a relaunch")
        let again = try #require(fresh.model(for: workID) as? Work)
        #expect(again !== work)
        #expect(again.title == "Dune", "the unsaved change is lost")
        #expect(again.authors.map(\.persistentModelID) == [authorID])
        #expect(fresh.fetch(.all(entity: "Work")).count == 1, "the unsaved insert is lost")
        #expect(relaunched.traps.isEmpty)

        // A temporary identifier from before the relaunch never resolves.
        #expect(fresh.registeredModel(for: unsavedID) == nil)
        #expect(fresh.fetch(.identifier(unsavedID)).isEmpty)
        _ = (fresh.model(for: unsavedID) as? Work)?.title
        #expect(relaunched.traps.map(\.code) == [.invalidatedBackingData])

        // A model held across the relaunch is invalid: reading it traps (in the old container).
        _ = work.title
        #expect(container.traps.map(\.code) == [.invalidatedBackingData])
        relaunched.close()
    }

    @Test("A temporary identifier that resolved after its save (R4 .resolves) no longer does after a relaunch",
          arguments: Backend.allCases)
    func remappedTemporaryIsDead(_ backend: Backend) throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let container = try backend.container(in: scratch, behavior: StoreBehavior(temporaryIDAfterSave: .resolves))
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let temporary = try #require(work.persistentModelID)
        try context.save()
        #expect(context.model(for: temporary) === work)
        let relaunched = try container.relaunch()
        let fresh = ModelContext(relaunched)
        #expect(fresh.fetch(.identifier(temporary)).isEmpty)
        #expect(fresh.registeredModel(for: temporary) == nil)
        // A new temporary identifier of the new launch never equals one of the old launch.
        let next = Work(title: "Emma")
        fresh.insert(next)
        #expect(next.persistentModelID != temporary)
        #expect(next.persistentModelID?.isTemporary == true)
        relaunched.close()
    }

    @Test("A relaunch after a relaunch: the launch count grows, rows stay", arguments: Backend.allCases)
    func relaunchTwice(_ backend: Backend) throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var container = try backend.container(in: scratch)
        #expect(container.launch == 1)
        let context = ModelContext(container)
        context.insert(Work(title: "Dune"))
        try context.save()
        for launch in 2...4 {
            container = try container.relaunch()
            #expect(container.launch == launch)
            #expect(container.rows.count == 1)
        }
        container.close()
    }
}
