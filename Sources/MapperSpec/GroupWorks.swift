extension SpecResponse {
    /// The response with every work's volume IDs removed: its groups make one work each, whatever the context holds.
    public var withoutVolumes: SpecResponse {
        SpecResponse(works: works.map { SpecResponse.Work(title: $0.title, tags: $0.tags, synthetic: $0.synthetic, provider: $0.provider, volumes: []) },
                     editions: editions, authors: authors)
    }

    /// The grouping part of a map step (M1–M8, M14), apart from what the context holds (M9–M11): the works mapping
    /// the response without volume IDs into an empty context makes, one per group in group order.
    public var groupWorks: [CanonicalWork] {
        var empty = MapperModel()
        return empty.map(withoutVolumes).map { empty.works[$0].current.canonical }
    }
}
