/// Names the rule a wrong mapping breaks, from the response, the specified result and the observed
/// one. It knows the rules only, never how a mapper went wrong.
public enum MappingDiagnosis {
    /// The rule that decides the first difference between `expected` and `observed`.
    /// - Parameter firstNewRef: the reference the first work created by this mapping takes.
    public static func rule(response: SpecResponse, expected: [MappedWork], observed: [MappedWork], firstNewRef: Int) -> String {
        if observed.contains(where: { !$0.isLive }) { return MapperRules.deletedYieldsFresh }
        let expectedOld = Set(expected.lazy.filter { $0.ref < firstNewRef }.map(\.ref))
        let observedOld = Set(observed.lazy.filter { $0.ref < firstNewRef }.map(\.ref))
        if !expectedOld.isSubset(of: observedOld) { return MapperRules.knownVolumeReused }
        if !observedOld.isSubset(of: expectedOld) { return MapperRules.deletedYieldsFresh }
        if observed.count < expected.count { return fewerWorksRule(response) }
        if observed.count > expected.count { return MapperRules.sharedISBNMerged }
        for (want, got) in zip(expected, observed) where want != got {
            if want.work.editionISBNs != got.work.editionISBNs { return MapperRules.ownEditions }
            if want.work.authors != got.work.authors {
                return got.work.authors.count > MapperVocabulary.maxAuthors ? MapperRules.savableGraph : MapperRules.ownAuthors
            }
            if want.work.editionDetails != got.work.editionDetails {
                let outOfRange = got.work.editionDetails.contains { detail in
                    detail.split(separator: "/").last.flatMap { Int($0) }.map { !MapperVocabulary.pageCountRange.contains($0) } ?? false
                }
                return outOfRange ? MapperRules.savableGraph : MapperRules.ownEditions
            }
            if want.work.tags != got.work.tags { return MapperRules.tagsPassThrough }
            if want.work.provider != got.work.provider { return MapperRules.providerKept }
            return want.ref < firstNewRef ? MapperRules.knownVolumeReused : MapperRules.sharedISBNMerged
        }
        return MapperRules.sharedISBNMerged
    }

    /// Too few works: the most specific grouping rule the response exercises.
    static func fewerWorksRule(_ response: SpecResponse) -> String {
        let groups = response.groups
        let syntheticSingletonWithISBN = groups.contains { group in
            group.members.count == 1 && response.works[group.members[0]].synthetic && !response.isbns(ofWork: group.members[0]).isEmpty
        }
        if syntheticSingletonWithISBN { return MapperRules.singletonKept }
        let syntheticWithoutISBN = response.works.indices.filter { response.works[$0].synthetic && response.isbns(ofWork: $0).isEmpty }
        if syntheticWithoutISBN.count > 1 { return MapperRules.missingISBNNotMerged }
        if response.works.contains(where: { !$0.synthetic }) { return MapperRules.nonSyntheticKept }
        return MapperRules.sharedISBNMerged
    }
}
