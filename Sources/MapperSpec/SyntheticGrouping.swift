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
    /// Whether this group merged two or more synthetic works sharing an ISBN.
    public var isMerged: Bool { members.count > 1 }
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

    /// M2, M4 (seed 002 US-2): whether the works at `a` and `b` share an ISBN and both are synthetic.
    static func shareISBN(_ a: Int, _ b: Int, _ works: [Work], _ editions: [Edition]) -> Bool {
        works[a].synthetic && works[b].synthetic && !Set(isbns(ofWork: a, editions)).isDisjoint(with: isbns(ofWork: b, editions))
    }

    /// M1–M4: the works that become one work with the work at `position`: the smallest set holding it and every
    /// work sharing an ISBN with a member (a fixpoint). A non-synthetic work, or one without an ISBN, stays alone.
    static func component(of position: Int, _ works: [Work], _ editions: [Edition]) -> [Int] {
        var members: Set<Int> = [position]
        while true {
            let next = members.union(works.indices.filter { j in members.contains { shareISBN($0, j, works, editions) } })
            if next == members { return members.sorted() }
            members = next
        }
    }

    /// The groups in the order of their first member (`groups` holds them); each gathers its members' volume IDs
    /// (first appearance), the editions naming a member (M5) and the authors who wrote one (M6), in response order.
    static func grouping(works: [Work], editions: [Edition], authors: [Author]) -> [MappingGroup] {
        works.indices.map { component(of: $0, works, editions) }.enumerated()
            .filter { position, members in members[0] == position }
            .map { _, members in
                var volumes: [Int] = []
                for volume in members.flatMap({ works[$0].volumes }) where !volumes.contains(volume) { volumes.append(volume) }
                return MappingGroup(members: members, volumes: volumes,
                                    editions: editions.indices.filter { members.contains(editions[$0].work) },
                                    authors: authors.indices.filter { a in authors[a].works.contains(where: members.contains) })
            }
    }
}

extension SpecResponse {
    /// M1–M4: the rule that decided which works `group` holds: M2 when it merged synthetic works sharing an ISBN;
    /// else its one work stayed alone because it is not synthetic (M1), because it has no ISBN while another
    /// synthetic work has none either (M4), or because no other synthetic work shares its ISBNs (M3).
    public func groupingRule(_ group: MappingGroup) -> String {
        if group.isMerged { return MapperRules.sharedISBNMerged }
        let position = group.members[0]
        if !works[position].synthetic { return MapperRules.nonSyntheticKept }
        guard isbns(ofWork: position).isEmpty else { return MapperRules.singletonKept }
        let another = works.indices.contains { $0 != position && works[$0].synthetic && isbns(ofWork: $0).isEmpty }
        return another ? MapperRules.missingISBNNotMerged : MapperRules.singletonKept
    }
}
