/// A `/v1/*` response body that cannot be turned into DTOs, with the coding path where it failed.
public struct DTODecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong at `path`.
    public enum Reason: Equatable, Sendable {
        /// A required field is absent.
        case missingField(String)
        /// A value has the wrong JSON type (expected type named).
        case typeMismatch(expected: String)
        /// A required value is `null`.
        case nullValue(expected: String)
        /// The body is not valid JSON (or ends early); the underlying description.
        case notJSON(String)
        /// The backend answered `"success": false`.
        case backendError(code: String, message: String)
    }

    /// The coding path, like `data.works[1].title` (empty for the document itself).
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: DTODecodingError.path(context.codingPath + [key]), reason: .missingField(key.stringValue))
        case .typeMismatch(let type, let context):
            self.init(path: DTODecodingError.path(context.codingPath), reason: .typeMismatch(expected: String(describing: type)))
        case .valueNotFound(let type, let context):
            self.init(path: DTODecodingError.path(context.codingPath), reason: .nullValue(expected: String(describing: type)))
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
            self.init(path: DTODecodingError.path(context.codingPath), reason: .notJSON(underlying))
        @unknown default:
            self.init(path: "", reason: .notJSON(String(describing: error)))
        }
    }

    /// `data.works[1].title` from coding keys (integer keys become subscripts).
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    public var description: String {
        let place = path.isEmpty ? "the response" : path
        switch reason {
        case .missingField(let name): return "\(place): required field '\(name)' is missing"
        case .typeMismatch(let expected): return "\(place): expected \(expected)"
        case .nullValue(let expected): return "\(place): expected \(expected), found null"
        case .notJSON(let detail): return "\(place): not valid JSON (\(detail))"
        case .backendError(let code, let message): return "backend error \(code): \(message)"
        }
    }
}
