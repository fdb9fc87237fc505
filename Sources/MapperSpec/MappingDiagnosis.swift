/// Names the rule a wrong mapping breaks, from the response, the specified result and the observed
/// one. It knows the rules only, never how a mapper went wrong.
///
/// A map step is observed in two parts, each decided by its own rules: the grouping part (the works the response
/// makes without volume IDs in an empty context, one per group: M1–M4 decide how many and which works, M5–M8 and M14
/// their values) and the context part (the works returned in the mapper's context: M9–M11 decide which are reused or
/// fresh). The grouping part is compared first: a mapping that groups wrongly also returns wrong works.
public enum MappingDiagnosis {
    /// The rule that decides the first difference between the expected and observed step.
    /// - Parameters:
    ///   - expectedGroups, observedGroups: the grouping part (`SpecResponse.groupWorks`).
    ///   - firstNewRef: the reference the first work created by this mapping takes (how many the case made before).
    public static func rule(response: SpecResponse, expectedGroups: [CanonicalWork], observedGroups: [CanonicalWork],
                            expected: [MappedWork], observed: [MappedWork], firstNewRef: Int) -> String {
        groupingRule(response, expected: expectedGroups, observed: observedGroups)
            ?? contextRule(expected: expected, observed: observed, firstNewRef: firstNewRef)
    }

    /// The grouping part (one work per group, in group order), or nil when it is as specified. A work of a group the
    /// observation lacks (dropped, or merged into another) names the rule that decided that group (M1–M4); with as
    /// many works as groups, the first differing work names the rule of its differing value.
    static func groupingRule(_ response: SpecResponse, expected: [CanonicalWork], observed: [CanonicalWork]) -> String? {
        guard expected != observed else { return nil }
        if expected.count != observed.count {
            var unmatched = observed
            for (index, work) in expected.enumerated() {
                guard let found = unmatched.firstIndex(of: work) else { return response.groupingRule(response.groups[index]) }
                unmatched.remove(at: found)
            }
            // Every specified work is there and more: a group was split.
            return MapperRules.sharedISBNMerged
        }
        for (want, got) in zip(expected, observed) where want != got {
            // A different title, or different volume IDs, is a different first member: the grouping (M2).
            return valuesRule(want, got) ?? MapperRules.sharedISBNMerged
        }
        return nil
    }

    /// The context part: which works the mapping returned in the mapper's context, and their values.
    static func contextRule(expected: [MappedWork], observed: [MappedWork], firstNewRef: Int) -> String {
        if observed.contains(where: { !$0.isLive }) { return MapperRules.deletedYieldsFresh }
        let expectedOld = Set(expected.lazy.filter { $0.ref < firstNewRef }.map(\.ref))
        let observedOld = Set(observed.lazy.filter { $0.ref < firstNewRef }.map(\.ref))
        // An old work returned that was not due: the work a volume ID yields is its one live holder (M9), so an old
        // work besides it is one no longer live (deleted, rolled back, abandoned) brought back (M10). Then a known
        // work not returned (a duplicate made in its place) is M9.
        if !observedOld.isSubset(of: expectedOld) { return MapperRules.deletedYieldsFresh }
        if !expectedOld.isSubset(of: observedOld) { return MapperRules.knownVolumeReused }
        // The groups are right (compared first), so a work too many or too few is a volume ID that did not yield the
        // work holding it (a duplicate) or yielded one it should not (M9).
        if observed.count != expected.count { return MapperRules.knownVolumeReused }
        for (want, got) in zip(expected, observed) where want != got {
            if let rule = valuesRule(want.work, got.work) { return rule }
            return want.ref < firstNewRef ? MapperRules.knownVolumeReused : MapperRules.sharedISBNMerged
        }
        return MapperRules.knownVolumeReused
    }

    /// The rule of the first value that differs between two works: editions M5, authors M6 (M14 beyond the schema's
    /// limit), the editions' details M5 (M14 for a page count outside the schema's range), tags M7, provider M8; nil
    /// when only the title or the volume IDs differ.
    static func valuesRule(_ want: CanonicalWork, _ got: CanonicalWork) -> String? {
        if want.editionISBNs != got.editionISBNs { return MapperRules.ownEditions }
        if want.authors != got.authors {
            return got.authors.count > MapperVocabulary.maxAuthors ? MapperRules.savableGraph : MapperRules.ownAuthors
        }
        if want.editionDetails != got.editionDetails {
            let outOfRange = got.editionDetails.contains { detail in
                detail.split(separator: "/").last.flatMap { Int($0) }.map { !MapperVocabulary.pageCountRange.contains($0) } ?? false
            }
            return outOfRange ? MapperRules.savableGraph : MapperRules.ownEditions
        }
        if want.tags != got.tags { return MapperRules.tagsPassThrough }
        if want.provider != got.provider { return MapperRules.providerKept }
        return nil
    }
}
