import BooksTracker
import Foundation
@testable import GraphStore
import Testing

@Suite("EmptyStoreImage: the harness's copy of a new store file")
struct EmptyStoreImageTests {
    @Test("The image is the file the store creates, and a container opened on a copy is a new store", arguments: [BooksConfiguration.local, .cloudKit])
    func imageIsTheCreatedFile(_ configuration: BooksConfiguration) throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let schema = BooksTrackerSchema.schema(configuration)
        let image = try #require(EmptyStoreImage(schema: schema, storeIdentifier: "store"))
        let created = scratch.file("created.sqlite")
        try SQLiteRowStorage.create(path: created, layout: try SQLiteLayout(schema: schema), storeIdentifier: "store")
        #expect(try ScratchStoreFile.contents(of: created) == image.bytes, "the same bytes as a store the production code creates")

        let copy = scratch.file("copy.sqlite")
        #expect(image.write(to: copy))
        #expect(!image.write(to: copy), "an existing file is never overwritten")
        #expect(try ScratchStoreFile.contents(of: copy) == image.bytes)
        let container = try ModelContainer(schema: schema, configuration: ModelConfiguration(trapPolicy: .record), path: copy)
        #expect(container.launch == 1, "opened for the first time")
        #expect(container.storeIdentifier == "store")
        #expect(container.rows.isEmpty)
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        try context.save()
        #expect(work.persistentModelID?.number == 1, "numbering starts at 1")
        container.close()
    }

    @Test("An image fits only the schema and store identifier it was made for")
    func fits() throws {
        let local = BooksTrackerSchema.schema(.local)
        let image = try #require(EmptyStoreImage(schema: local, storeIdentifier: "store"))
        #expect(image.fits(local, storeIdentifier: "store"))
        #expect(!image.fits(local, storeIdentifier: "other"))
        #expect(!image.fits(BooksTrackerSchema.schema(.cloudKit), storeIdentifier: "store"))
        #expect(!image.fits(BooksTrackerSchema.schema(.local, localEditionEntriesRule: .nullify), storeIdentifier: "store"))
    }

    @Test("A write into a folder that does not exist fails and leaves nothing")
    func failedWrite() throws {
        let image = try #require(EmptyStoreImage(schema: BooksTrackerSchema.schema(.local), storeIdentifier: "store"))
        #expect(!image.write(to: "/dev/null/missing/store.sqlite"))
        #expect(throws: POSIXError.self) { try ScratchStoreFile.contents(of: "/dev/null/missing/store.sqlite") }
    }
}
