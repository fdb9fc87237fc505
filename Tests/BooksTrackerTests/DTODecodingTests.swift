import Foundation
import Testing
@testable import BooksTracker

@Suite("DTO decoding of /v1/* responses")
struct DTODecodingTests {
    @Test("A Google Books title search decodes every field")
    func gatsby() throws {
        let data = try SearchResponseData.decode(from: try Fixture.gatsby.data())
        #expect(data.works.count == 3)
        #expect(data.works.allSatisfy { $0.synthetic })
        #expect(data.works[2].googleBooksVolumeIDs == ["AAA3", "AAA4"])
        #expect(data.works[0].subjectTags == ["Fiction", "Classics"])
        #expect(data.works[0].primaryProvider == "google-books")
        #expect(data.editions[0].isbns == ["9780743273565", "0743273567"])
        #expect(data.editions[0].pageCount == 180)
        #expect(data.editions[1].workId == "synthetic:gb-AAA2")
        #expect(data.authors == [AuthorDTO(name: "F. Scott Fitzgerald",
                                           workIds: ["synthetic:gb-AAA1", "synthetic:gb-AAA2", "synthetic:gb-AAA3"])])
    }

    @Test("Optional fields may be absent; lists default to empty")
    func mixedAndEmpty() throws {
        let mixed = try SearchResponseData.decode(from: try Fixture.mixed.data())
        #expect(mixed.works.map(\.synthetic) == [false, true, true, true, true])
        #expect(mixed.editions[3].isbn == nil)
        #expect(mixed.editions[3].isbns.isEmpty)
        #expect(mixed.editions[3].primaryISBN == nil)
        #expect(mixed.editions[4].primaryISBN == "9780385613705")
        let empty = try SearchResponseData.decode(from: try Fixture.empty.data())
        #expect(empty == SearchResponseData())
        let dune = try SearchResponseData.decode(from: try Fixture.dune.data())
        #expect(dune.editions.map(\.allISBNs) == [["9780441172719", "0441172717"], ["9780593099322"]])
    }

    @Test("A missing required field names its coding path")
    func missingTitle() throws {
        let error = #expect(throws: DTODecodingError.self) { try SearchResponseData.decode(from: try Fixture.missingTitle.data()) }
        #expect(error?.path == "data.works[1].title")
        #expect(error?.reason == .missingField("title"))
    }

    @Test("A value of the wrong type names its coding path")
    func wrongType() throws {
        let error = #expect(throws: DTODecodingError.self) { try SearchResponseData.decode(from: try Fixture.wrongType.data()) }
        #expect(error?.path == "data.editions[0].pageCount")
        #expect(error?.reason == .typeMismatch(expected: "Int"))
    }

    @Test("Truncated and non-JSON bodies are typed errors, not crashes")
    func truncatedAndHTML() throws {
        for fixture in [Fixture.truncated, .notJSON] {
            let error = #expect(throws: DTODecodingError.self) { try SearchResponseData.decode(from: try fixture.data()) }
            guard case .notJSON = error?.reason else {
                Issue.record("\(fixture): expected .notJSON, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("An error envelope carries the backend's code")
    func backendError() throws {
        let error = #expect(throws: DTODecodingError.self) { try SearchResponseData.decode(from: try Fixture.backendError.data()) }
        #expect(error?.reason == .backendError(code: "PROVIDER_TIMEOUT", message: "Google Books did not answer in time"))
    }

    @Test("DTOs round-trip through JSON")
    func roundTrip() throws {
        let data = try SearchResponseData.decode(from: try Fixture.mixed.data())
        let again = try JSONDecoder().decode(SearchResponseData.self, from: try JSONEncoder().encode(data))
        #expect(again == data)
    }
}
