import BooksTracker
import GraphStore
import Testing

@Suite("Trap policy")
struct CrashPolicyTests {
    @Test("Under .crash (the default) a store trap stops the process with the trap's message")
    func crashStopsTheProcess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = BooksTrackerSchema.container(.local)
            let context = ModelContext(container)
            let work = Work(title: "Dune")
            context.insert(work)
            context.insert(work)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Duplicate registration attempt for object with id x-coredata:///Work/t1"))
    }

    @Test("Under .record the trap is recorded and the operation changes nothing")
    func recordKeepsGoing() {
        let container = BooksTrackerSchema.container(.local, store: ModelConfiguration(trapPolicy: .record))
        let context = ModelContext(container)
        let work = Work(title: "Dune")
        context.insert(work)
        context.insert(work)
        #expect(container.traps.map(\.code) == [.duplicateRegistration])
        #expect(context.insertedModelsArray.count == 1)
    }
}
