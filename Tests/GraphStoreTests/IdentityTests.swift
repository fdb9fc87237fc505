import BooksTracker
import GraphStore
import Testing

@Suite("Identity: R1–R4")
struct IdentityTests {
    @Test("A new model has no context and no identifier (R1)")
    func newModel() {
        let work = Work(title: "Dune")
        #expect(work.modelContext == nil)
        #expect(work.persistentModelID == nil)
    }

    @Test("Insert gives a temporary identifier, save a different permanent one (R2, R3)")
    func temporaryThenPermanent() throws {
        let container = makeContainer()
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let temporary = try #require(work.persistentModelID)
        #expect(temporary.isTemporary)
        #expect(temporary.description.hasPrefix("x-coredata:///Work/t"))
        try context.save()
        let permanent = try #require(work.persistentModelID)
        #expect(!permanent.isTemporary)
        #expect(permanent != temporary)
        #expect(container.rows[permanent] != nil)
    }

    @Test("A held temporary identifier after save follows R4", arguments: StoreBehavior.TemporaryIDAfterSave.allCases)
    func heldTemporary(_ mode: StoreBehavior.TemporaryIDAfterSave) throws {
        let container = makeContainer(behavior: StoreBehavior(temporaryIDAfterSave: mode))
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        let temporary = try #require(work.persistentModelID)
        try context.save()
        switch mode {
        case .resolves:
            #expect(context.registeredModel(for: temporary) === work)
            #expect(context.model(for: temporary) === work)
        case .unknown:
            #expect(context.registeredModel(for: temporary) == nil)
            let placeholder = context.model(for: temporary)
            #expect(placeholder !== work)
            _ = (placeholder as? Work)?.title
            #expect(container.traps.map(\.code) == [.invalidatedBackingData])
        }
    }

    @Test("Permanent-on-insert strategy gives a permanent identifier at insert")
    func permanentOnInsert() throws {
        let container = makeContainer(behavior: StoreBehavior(faults: [.permanentIdentifiersAtInsert]))
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        #expect(work.persistentModelID?.isTemporary == false)
    }
}
