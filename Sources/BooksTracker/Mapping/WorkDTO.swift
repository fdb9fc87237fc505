/// A work as the backend's `/v1/*` endpoints send it (the canonical work contract).
///
/// `id` is the backend's work id; editions name their work by it (`EditionDTO.workId`) and authors
/// list the works they wrote by it (`AuthorDTO.workIds`). Missing list fields decode as empty and a
/// missing `synthetic` as `false`; `id` and `title` are required.
public struct WorkDTO: Codable, Sendable, Equatable {
    /// The backend's work id (an OpenLibrary work id, or `synthetic:…` for Google Books works).
    public var id: String
    public var title: String
    /// Genre tags, already normalised by the backend; the client applies them unchanged.
    public var subjectTags: [String]
    /// True when the backend made the work up from a single Google Books volume.
    public var synthetic: Bool
    /// The provider the backend took the work from (provenance, kept for debugging).
    public var primaryProvider: String?
    /// Google Books volume ids of this work.
    public var googleBooksVolumeIDs: [String]

    public init(id: String, title: String, subjectTags: [String] = [], synthetic: Bool = false,
                primaryProvider: String? = nil, googleBooksVolumeIDs: [String] = []) {
        self.id = id
        self.title = title
        self.subjectTags = subjectTags
        self.synthetic = synthetic
        self.primaryProvider = primaryProvider
        self.googleBooksVolumeIDs = googleBooksVolumeIDs
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, subjectTags, synthetic, primaryProvider, googleBooksVolumeIDs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        subjectTags = try container.decodeIfPresent([String].self, forKey: .subjectTags) ?? []
        synthetic = try container.decodeIfPresent(Bool.self, forKey: .synthetic) ?? false
        primaryProvider = try container.decodeIfPresent(String.self, forKey: .primaryProvider)
        googleBooksVolumeIDs = try container.decodeIfPresent([String].self, forKey: .googleBooksVolumeIDs) ?? []
    }
}
