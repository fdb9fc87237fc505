/// An author as the backend's `/v1/*` endpoints send it (the canonical author contract).
public struct AuthorDTO: Codable, Sendable, Equatable {
    public var name: String
    /// Backend ids of the works in the same response this author wrote (`WorkDTO.id`).
    public var workIds: [String]

    public init(name: String, workIds: [String] = []) {
        self.name = name
        self.workIds = workIds
    }

    private enum CodingKeys: String, CodingKey { case name, workIds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        workIds = try container.decodeIfPresent([String].self, forKey: .workIds) ?? []
    }
}
