extension SpecResponse {
    /// M13: the coding paths of the fields a `/v1/*` body of this response must carry (the envelope's `success` and
    /// `data`, the works list, each work's `id` and `title`, each author's `name`), in document order. A body lacking
    /// one is malformed: decoding it names that path and the mapping inserts nothing.
    public var requiredPaths: [String] {
        ["success", "data", "data.works"]
            + works.indices.flatMap { ["data.works[\($0)].id", "data.works[\($0)].title"] }
            + authors.indices.map { "data.authors[\($0)].name" }
    }
}
