import GraphFuzzEngine

extension MapperModel {
    /// A map step: maps `response` in the mapper's context and predicts what the step observes, declaring beside each
    /// part the rule that decides it. The grouping part: each group mapped alone into an empty context, holding its
    /// members' work ids as volume IDs (M1–M4 which works it holds, M5–M8 and M14 its values). The context part: the
    /// works returned, in group order, each once (M9: the live work holding a volume ID; M10: else a fresh work, and
    /// every returned work live), with their values. A trap at the step is M11's.
    public mutating func map(_ response: SpecResponse) -> Prediction<MapperObservation> {
        var rules: [(label: String, rule: String)] = [(MappingPart.trap, MapperRules.noStaleRead)]
        var groupingWorks: [CanonicalWork] = []
        for (i, group) in response.groups.enumerated() {
            rules.append((MappingPart.group(i), group.rule))
            let fresh = Self.mapped(group, response, onto: .none, volumes: [])
            var work = fresh.values.canonical
            work.volumeIDs = group.members.map(MapperVocabulary.workID)
            groupingWorks.append(work)
            rules += fresh.fieldRules { MappingPart.group(i, $0) }
        }
        var returned: [(ref: Int, rule: String, mapped: Mapped)] = []
        for group in response.groups {
            // M9: the live work holding the first of the group's volume IDs that a live work holds; M10: else a fresh work.
            let reused = group.volumes.lazy.compactMap(holder(of:)).first
            let ref = reused ?? newWork()
            let result = Self.mapped(group, response, onto: reused.map { works[$0].current }, volumes: group.volumes.filter { holder(of: $0) == nil })
            pendingAuthors += result.values.authors.count - works[ref].current.authors.count
            works[ref].current = result.values
            if works[ref].lifecycle == .saved { works[ref].changed = true }
            if let j = returned.firstIndex(where: { $0.ref == ref }) {
                returned[j].mapped = returned[j].mapped.then(result)
            } else {
                returned.append((ref, reused == nil ? MapperRules.deletedYieldsFresh : MapperRules.knownVolumeReused, result))
            }
        }
        rules.append((MappingPart.notLive, MapperRules.deletedYieldsFresh))
        for (j, work) in returned.enumerated() {
            rules.append((MappingPart.returned(j), work.rule))
            // The title is the last group's that M9 mapped onto the work (a reused work takes the response's title).
            rules.append((MappingPart.returnedTitle(j), MapperRules.knownVolumeReused))
            rules.append((MappingPart.returnedVolumes(j), work.rule))
            rules += work.mapped.fieldRules { MappingPart.returned(j, $0) }
        }
        let value = MapperObservation.mapped(returned.map { MappedWork(ref: $0.ref, work: works[$0.ref].current.canonical) }, groups: groupingWorks)
        return rules.reduce(Prediction(value, rule: MapperRules.knownVolumeReused)) { $0.part($1.label, rule: $1.rule) }
    }

    /// A new, empty pending work; returns its reference.
    private mutating func newWork() -> Int {
        works.append(Work(lifecycle: .inserted, current: Values(title: 0, tags: [], provider: nil, synthetic: false, volumes: [], editions: [], authors: [])))
        return works.count - 1
    }

    // MARK: The mapping rules, one function each

    /// A work's values after one group's mapping, with the rules that decided its edition details and its number of
    /// authors (M14 where the schema's limits changed what it stores).
    struct Mapped {
        var values: Values
        var detailsRule: String
        var authorCountRule: String

        /// The rule of each value part of the work, labelled by `label`.
        func fieldRules(_ label: (MappingPart.Field) -> String) -> [(label: String, rule: String)] {
            [(label(.editions), MapperRules.ownEditions), (label(.authorCount), authorCountRule), (label(.authors), MapperRules.ownAuthors),
             (label(.editionDetails), detailsRule), (label(.tags), MapperRules.tagsPassThrough), (label(.provider), MapperRules.providerKept),
             (label(.synthetic), MapperRules.providerKept), (label(.editionProviders), MapperRules.providerKept)]
        }

        /// The work after `next` mapped another group onto it in the same step: M14 decides a part either decided.
        func then(_ next: Mapped) -> Mapped {
            Mapped(values: next.values, detailsRule: detailsRule == MapperRules.savableGraph ? detailsRule : next.detailsRule,
                   authorCountRule: authorCountRule == MapperRules.savableGraph ? authorCountRule : next.authorCountRule)
        }
    }

    /// M2, M7, M8, M9: `group` mapped onto the values `old` of the work it reuses (nil: a new work): the first member's
    /// title, tags (unchanged, M7), provider and synthetic flag (M8); the volume IDs `volumes` gained; the editions it gains (M5) as the
    /// schema stores them (M14); the authors it lacks (M6), within the schema's limit (M14).
    static func mapped(_ group: MappingGroup, _ response: SpecResponse, onto old: Values?, volumes: [Int]) -> Mapped {
        let first = response.works[group.members[0]]
        let held = old ?? Values(title: first.title, tags: [], provider: nil, synthetic: false, volumes: [], editions: [], authors: [])
        let editions = editionsGained(group.editions.map { response.editions[$0] }, holding: old?.editions)
        let stored = editions.map(editionModel)
        let wanted = held.authors + authorsLacking(group.authors.map { response.authors[$0].name }, holding: held.authors)
        let authors = savableAuthors(wanted)
        let limited = zip(editions, stored).contains { sent, kept in sent.isbn != kept.isbn || sent.pageCount.map { MapperVocabulary.pageCounts[$0] } != kept.pageCount }
        return Mapped(values: Values(title: first.title, tags: first.tags, provider: first.provider, synthetic: first.synthetic,
                                     volumes: held.volumes + volumes,
                                     editions: held.editions + stored, authors: authors),
                      detailsRule: limited ? MapperRules.savableGraph : MapperRules.ownEditions,
                      authorCountRule: authors.count < wanted.count ? MapperRules.savableGraph : MapperRules.ownAuthors)
    }

    /// M5: the editions a work gets: every edition naming a member of its group; a work that holds editions already
    /// (`held`, M9) gains only those with an identifying ISBN it lacks.
    static func editionsGained(_ editions: [SpecResponse.Edition], holding held: [EditionValues]?) -> [SpecResponse.Edition] {
        guard let held else { return editions }
        let isbns = held.map(\.isbn)
        return editions.filter { $0.primaryISBN != nil && !isbns.contains($0.primaryISBN) }
    }

    /// M14: what an edition stores: its identifying ISBN (the primary one, else the first further one), its title and
    /// publisher as sent, and its page count only inside the schema's range (0, a backend's "unknown", is not stored).
    /// M8: its own DTO's provider, never its work's (the responses name no edition provider).
    static func editionModel(_ edition: SpecResponse.Edition) -> EditionValues {
        EditionValues(isbn: edition.primaryISBN, title: edition.title, publisher: edition.publisher,
                      pageCount: edition.pageCount.map { MapperVocabulary.pageCounts[$0] }.flatMap {
                          MapperVocabulary.pageCountRange.contains($0) ? $0 : nil }, provider: nil)
    }

    /// M6: the names among `names` (response order) that a work holding `held` lacks, each once (a repeated name is one
    /// author).
    static func authorsLacking(_ names: [Int], holding held: [Int]) -> [Int] {
        var lacking: [Int] = []
        for name in names where !held.contains(name) && !lacking.contains(name) { lacking.append(name) }
        return lacking
    }

    /// M14: the authors a work keeps of `authors` (those it held first, then the new ones in order): at most the
    /// schema's `maxAuthors`.
    static func savableAuthors(_ authors: [Int]) -> [Int] {
        authors.count > MapperVocabulary.maxAuthors ? Array(authors.prefix(MapperVocabulary.maxAuthors)) : authors
    }
}
