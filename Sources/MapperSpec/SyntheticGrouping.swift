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
    /// The ISBNs of the editions naming the work at `position`.
    public func isbns(ofWork position: Int) -> [Int] {
        SpecResponse.isbns(ofWork: position, editions)
    }

    static func isbns(ofWork position: Int, _ editions: [Edition]) -> [Int] {
        var result: [Int] = []
        for edition in editions where edition.work == position {
            if let isbn = edition.isbn, !result.contains(isbn) { result.append(isbn) }
        }
        return result
    }

    /// The groups in the order of their first member (`groups` holds them).
    static func grouping(works: [Work], editions: [Edition], authors: [Author]) -> [MappingGroup] {
        let count = works.count
        var parent = Array(0..<count)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { i = parent[i] }
            return i
        }
        // Synthetic works with an ISBN are joined to the first synthetic work holding the same ISBN.
        var firstHolder = Array(repeating: -1, count: MapperVocabulary.isbns.count)
        for position in 0..<count where works[position].synthetic {
            for isbn in isbns(ofWork: position, editions) {
                if firstHolder[isbn] < 0 {
                    firstHolder[isbn] = position
                } else {
                    let a = root(firstHolder[isbn]), b = root(position)
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
        }
        var groupOfRoot = Array(repeating: -1, count: count)
        var groups: [MappingGroup] = []
        for position in 0..<count {
            let r = root(position)
            if groupOfRoot[r] < 0 {
                groupOfRoot[r] = groups.count
                groups.append(MappingGroup(members: [], volumes: [], editions: [], authors: []))
            }
            let g = groupOfRoot[r]
            groups[g].members.append(position)
            for volume in works[position].volumes where !groups[g].volumes.contains(volume) {
                groups[g].volumes.append(volume)
            }
        }
        for (e, edition) in editions.enumerated() where edition.work < count {
            groups[groupOfRoot[root(edition.work)]].editions.append(e)
        }
        for (a, author) in authors.enumerated() {
            var added: [Int] = []
            for work in author.works where work < count {
                let g = groupOfRoot[root(work)]
                if !added.contains(g) {
                    added.append(g)
                    groups[g].authors.append(a)
                }
            }
        }
        return groups
    }
}
