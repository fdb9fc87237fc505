/// An edition as the backend's `/v1/*` endpoints send it (the canonical edition contract).
public struct EditionDTO: Codable, Sendable, Equatable {
    /// The edition's primary ISBN, if it has one.
    public var isbn: String?
    /// Every ISBN of the edition (ISBN-10 and ISBN-13), the primary one included.
    public var isbns: [String]
    public var title: String?
    public var publisher: String?
    public var pageCount: Int?
    /// The backend id of the work this edition belongs to (`WorkDTO.id`).
    public var workId: String?
    public var primaryProvider: String?

    public init(isbn: String? = nil, isbns: [String] = [], title: String? = nil, publisher: String? = nil,
                pageCount: Int? = nil, workId: String? = nil, primaryProvider: String? = nil) {
        self.isbn = isbn
        self.isbns = isbns
        self.title = title
        self.publisher = publisher
        self.pageCount = pageCount
        self.workId = workId
        self.primaryProvider = primaryProvider
    }

    /// The ISBN that identifies the edition: the primary one, else the first listed.
    public var primaryISBN: String? { isbn ?? isbns.first }

    /// Every ISBN of the edition, the primary first, without repeats.
    public var allISBNs: [String] {
        var result: [String] = []
        if let isbn { result.append(isbn) }
        for other in isbns where !result.contains(other) { result.append(other) }
        return result
    }

    private enum CodingKeys: String, CodingKey {
        case isbn, isbns, title, publisher, pageCount, workId, primaryProvider
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isbn = try container.decodeIfPresent(String.self, forKey: .isbn)
        isbns = try container.decodeIfPresent([String].self, forKey: .isbns) ?? []
        title = try container.decodeIfPresent(String.self, forKey: .title)
        publisher = try container.decodeIfPresent(String.self, forKey: .publisher)
        pageCount = try container.decodeIfPresent(Int.self, forKey: .pageCount)
        workId = try container.decodeIfPresent(String.self, forKey: .workId)
        primaryProvider = try container.decodeIfPresent(String.self, forKey: .primaryProvider)
    }
}
