/// Which response works become one work (M1–M4): synthetic works that share an ISBN through their
/// editions, transitively; every other work alone.
public struct MappingGroup: Equatable, Sendable {
    /// Positions of the member works in response order; the first decides title, tags and provider.
    public var members: [Int]
    /// The members' volume IDs in order of first appearance.
    public var volumes: [Int]
    /// Positions of the editions naming a member, in response order.
    public var editions: [Int]
    /// Positions of the authors who wrote a member, in response order.
    public var authors: [Int]
    /// The rule that made the group what it is (M1–M4): it decides the group's part of a map step's observation.
    public var rule: String
}

extension SpecResponse {
    /// The ISBNs (primary and further ones) of the editions naming the work at `position`.
    public func isbns(ofWork position: Int) -> [Int] {
        SpecResponse.isbns(ofWork: position, editions)
    }

    static func isbns(ofWork position: Int, _ editions: [Edition]) -> [Int] {
        var result: [Int] = []
        for edition in editions where edition.work == position {
            for isbn in edition.allISBNs where !result.contains(isbn) { result.append(isbn) }
        }
        return result
    }

    /// M2 (seed 002 US-2, "Deduplicate by ISBN"): the synthetic works with an ISBN that share one with `position`'s
    /// work or with a work sharing one with it, transitively (a fixpoint), `position` included.
    static func sharingISBN(with position: Int, _ works: [Work], _ isbns: [[Int]]) -> [Int] {
        var members: Set<Int> = [position]
        while true {
            let next = members.union(works.indices.filter { j in
                works[j].synthetic && members.contains { !Set(isbns[$0]).isDisjoint(with: isbns[j]) }
            })
            if next == members { return members.sorted() }
            members = next
        }
    }

    /// The groups in the order of their first member, each with the rule that made it: a non-synthetic work alone
    /// (M1); a synthetic work without ISBN alone (M4 when another synthetic work has none either, M3 otherwise);
    /// synthetic works sharing an ISBN merged (M2), or a synthetic work whose ISBNs nobody shares alone (M3). Each
    /// gathers its members' volume IDs (first appearance), the editions naming a member (M5) and the authors who
    /// wrote one (M6), in response order.
    static func grouping(works: [Work], editions: [Edition], authors: [Author]) -> [MappingGroup] {
        let isbns = works.indices.map { SpecResponse.isbns(ofWork: $0, editions) }
        var grouped = Set<Int>()
        var groups: [MappingGroup] = []
        for position in works.indices where !grouped.contains(position) {
            let members: [Int], rule: String
            if !works[position].synthetic {
                (members, rule) = ([position], MapperRules.nonSyntheticKept)
            } else if isbns[position].isEmpty {
                let another = works.indices.contains { $0 != position && works[$0].synthetic && isbns[$0].isEmpty }
                (members, rule) = ([position], another ? MapperRules.missingISBNNotMerged : MapperRules.singletonKept)
            } else {
                members = sharingISBN(with: position, works, isbns)
                rule = members.count > 1 ? MapperRules.sharedISBNMerged : MapperRules.singletonKept
            }
            grouped.formUnion(members)
            var volumes: [Int] = []
            for volume in members.flatMap({ works[$0].volumes }) where !volumes.contains(volume) { volumes.append(volume) }
            groups.append(MappingGroup(members: members, volumes: volumes,
                                       editions: editions.indices.filter { members.contains(editions[$0].work) },
                                       authors: authors.indices.filter { a in authors[a].works.contains(where: members.contains) },
                                       rule: rule))
        }
        return groups
    }
}
