#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `data` payload of a `/v1/search/*` or `/v1/enrichment/*` response: works, their editions
/// and their authors, related by the backend's work ids.
public struct SearchResponseData: Codable, Sendable, Equatable {
    public var works: [WorkDTO]
    public var editions: [EditionDTO]
    public var authors: [AuthorDTO]

    public init(works: [WorkDTO] = [], editions: [EditionDTO] = [], authors: [AuthorDTO] = []) {
        self.works = works
        self.editions = editions
        self.authors = authors
    }

    private enum CodingKeys: String, CodingKey { case works, editions, authors }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        works = try container.decode([WorkDTO].self, forKey: .works)
        editions = try container.decodeIfPresent([EditionDTO].self, forKey: .editions) ?? []
        authors = try container.decodeIfPresent([AuthorDTO].self, forKey: .authors) ?? []
    }

    /// Decodes a `/v1/*` response body: the envelope `{"success": true, "data": {…}}`.
    ///
    /// A body that is not JSON, is cut short, lacks a required field or has a value of the wrong
    /// type throws `DTODecodingError` naming the coding path (`data.works[1].title`). An envelope
    /// with `"success": false` throws `.backendError` with the backend's code and message.
    public static func decode(from body: Data) throws(DTODecodingError) -> SearchResponseData {
        let envelope: ResponseEnvelope
        do {
            envelope = try JSONDecoder().decode(ResponseEnvelope.self, from: body)
        } catch let error as DecodingError {
            throw DTODecodingError(error)
        } catch {
            throw DTODecodingError(path: "", reason: .notJSON(String(describing: error)))
        }
        if let data = envelope.data, envelope.success { return data }
        let failure = envelope.error
        throw DTODecodingError(path: "error", reason: .backendError(
            code: failure?.code ?? "UNKNOWN", message: failure?.message ?? "success is false and no data was sent"))
    }
}

/// The envelope every `/v1/*` endpoint wraps its payload in.
struct ResponseEnvelope: Decodable {
    struct BackendError: Decodable {
        var code: String?
        var message: String?
    }

    var success: Bool
    var data: SearchResponseData?
    var error: BackendError?

    private enum CodingKeys: String, CodingKey { case success, data, error }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        success = try container.decode(Bool.self, forKey: .success)
        error = try container.decodeIfPresent(BackendError.self, forKey: .error)
        data = success ? try container.decode(SearchResponseData.self, forKey: .data) : nil
    }
}
