import BooksTracker
import GraphStore
import Testing

@Suite("Reference cycles")
struct ReferenceCycleTests {
    @Test("two never-inserted models linked to each other are freed once their links are broken")
    func uninsertedGraphIsFreed() {
        weak var weakWork: Work?
        weak var weakEntry: UserLibraryEntry?
        do {
            let work = Work(title: "Dune")
            let entry = UserLibraryEntry(readingStatus: .toRead)
            entry.work = work
            #expect(work.userLibraryEntries.contains { $0 === entry })
            weakWork = work
            weakEntry = entry
            work.breakReferenceCycles()
            entry.breakReferenceCycles()
        }
        #expect(weakWork == nil)
        #expect(weakEntry == nil)
    }
}
