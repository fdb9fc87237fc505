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
            self.title = title
            self.tags = tags
            self.synthetic = synthetic
            self.provider = provider
            self.volumes = volumes
        }
    }

    public struct Edition: Equatable, Sendable {
        /// The ISBN, if any.
        public var isbn: Int?
        /// The position of the work it names (`w1` is 0); may be past the last work (a stray edition).
        public var work: Int

        public init(isbn: Int?, work: Int) {
            self.isbn = isbn
            self.work = work
        }
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

    public var works: [Work]
    public var editions: [Edition]
    public var authors: [Author]

    public init(works: [Work], editions: [Edition], authors: [Author]) {
        self.works = works
        self.editions = editions
        self.authors = authors
    }
}
