import Foundation

/// Sample `/v1/*` response bodies shipped with the tests (Tests/BooksTrackerTests/Fixtures).
enum Fixture: String, CaseIterable {
    case gatsby = "search-title-gatsby.json"
    case dune = "search-isbn-dune.json"
    case mixed = "search-title-mixed.json"
    case empty = "search-empty.json"
    case missingTitle = "malformed-missing-title.json"
    case wrongType = "malformed-wrong-type.json"
    case truncated = "truncated-gatsby.json"
    case notJSON = "not-json.html"
    case backendError = "backend-error.json"

    /// The fixture's bytes.
    func data() throws -> Data {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: folder.appendingPathComponent(rawValue))
    }

    /// The fixtures that must not decode.
    static let malformed: [Fixture] = [.missingTitle, .wrongType, .truncated, .notJSON, .backendError]
}
