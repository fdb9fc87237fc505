/// A `/v1/*` search response as the specification sees it: every string an index into
/// `MapperVocabulary`, works identified by their position (backend id `w1`, `w2`, …).
public struct SpecResponse: Equatable, Sendable {
    public struct Work: Equatable, Sendable {
        public var title: Int
        public var tags: [Int]
        public var synthetic: Bool
        public var provider: Int?
        public var volumes: [Int]

        public init(title: Int, tags: [Int], synthetic: Bool, provider: Int?, volumes: [Int]) {
            (self.title, self.tags, self.synthetic, self.provider, self.volumes) = (title, tags, synthetic, provider, volumes)
        }
    }

    public struct Edition: Equatable, Sendable {
        /// The primary ISBN, if any.
        public var isbn: Int?
        /// The position of the work it names (`w1` is 0); may be past the last work (a stray edition).
        public var work: Int
        /// Further ISBNs of the edition (ISBN-10s, other printings), in the order sent; may repeat the primary.
        public var isbns: [Int]
        /// The edition's title, publisher and page count (indexes into `MapperVocabulary`), if sent.
        public var title: Int?
        public var publisher: Int?
        public var pageCount: Int?

        public init(isbn: Int?, work: Int, isbns: [Int] = [], title: Int? = nil, publisher: Int? = nil, pageCount: Int? = nil) {
            (self.isbn, self.work, self.isbns) = (isbn, work, isbns)
            (self.title, self.publisher, self.pageCount) = (title, publisher, pageCount)
        }

        /// M5: the ISBN that identifies the edition (and that its model stores): the primary one, else the first
        /// further one.
        public var primaryISBN: Int? { isbn ?? isbns.first }

        /// M2: every ISBN the edition carries, the primary one first.
        public var allISBNs: [Int] { (isbn.map { [$0] } ?? []) + isbns }

        /// Whether the edition sends anything beyond a primary ISBN and a work id.
        public var isRich: Bool { !isbns.isEmpty || title != nil || publisher != nil || pageCount != nil }
    }

    public struct Author: Equatable, Sendable {
        public var name: Int
        /// Positions of the works it wrote; may include positions past the last work.
        public var works: [Int]

        public init(name: Int, works: [Int]) {
            self.name = name
            self.works = works
        }
    }

    public let works: [Work]
    public let editions: [Edition]
    public let authors: [Author]
    /// Which works become one work (M1–M4), in the order of their first member; derived from the three
    /// lists once, when the response is made (a mapping step reads it three times: generation,
    /// precondition, specification).
    public let groups: [MappingGroup]

    public init(works: [Work], editions: [Edition], authors: [Author]) {
        self.works = works
        self.editions = editions
        self.authors = authors
        self.groups = SpecResponse.grouping(works: works, editions: editions, authors: authors)
    }

    /// Equal responses have equal groups (they are derived), so the lists decide.
    public static func == (lhs: SpecResponse, rhs: SpecResponse) -> Bool {
        lhs.works == rhs.works && lhs.editions == rhs.editions && lhs.authors == rhs.authors
    }
}
