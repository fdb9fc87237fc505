package import FaultPoints

/// Response works that become one work: synthetic works sharing an ISBN through their editions
/// (transitively); every other work alone. Groups keep response order (by their first member).
struct WorkGroup {
    /// Positions of the member works in response order; the first decides title, tags and provider.
    var members: [Int]
    /// The members' volume IDs in order of first appearance.
    var volumeIDs: [String]
    /// Positions of the editions this group's work gets.
    var editions: [Int]
    /// Positions of the authors this group's work gets.
    var authors: [Int]
}

enum WorkGrouping {
    /// Up to how many work IDs or ISBNs lookups scan a list instead of hashing.
    static let smallCount = 16

    /// The groups of `data`'s works. Lookups of work IDs and ISBNs scan lists of up to `smallCount` entries and
    /// hash beyond that; both ways give the same groups (`WorkGroupingTests` compares them on responses larger than
    /// any the mapper target generates, so the hashed way is checked too).
    static func groups(_ data: SearchResponseData, _ strategy: MapperStrategy, smallCount: Int = smallCount) -> [WorkGroup] {
        let works = data.works
        // The first position of each work ID: a scan of the works in a small response (cheaper than hashing the
        // IDs), a dictionary in a large one.
        let indexed = works.count > smallCount
        var positionOfID: [String: Int] = [:]
        if indexed {
            for (position, work) in works.enumerated() where positionOfID[work.id] == nil { positionOfID[work.id] = position }
        }
        func position(_ workID: String) -> Int? { indexed ? positionOfID[workID] : works.firstIndex { $0.id == workID } }
        var isbnsOfWork = Array(repeating: [String](), count: works.count)
        for e in data.editions.indices {
            guard let workID = data.editions[e].workId, let position = position(workID) else { continue }
            // `allISBNs` in place (the primary first, without repeats), without making the list.
            if let isbn = data.editions[e].isbn, !isbnsOfWork[position].contains(isbn) { isbnsOfWork[position].append(isbn) }
            for isbn in data.editions[e].isbns where !isbnsOfWork[position].contains(isbn) { isbnsOfWork[position].append(isbn) }
        }

        var parent = Array(works.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { i = parent[i] }
            return i
        }
        func join(_ a: Int, _ b: Int) {
            let (x, y) = (root(a), root(b))
            if x != y { parent[max(x, y)] = min(x, y) }
        }
        // The first synthetic work holding each ISBN: pairs scanned while they are few, a dictionary beyond.
        var holders: [(isbn: String, position: Int)] = []
        var firstHolder: [String: Int] = [:]
        func holder(_ isbn: String) -> Int? {
            holders.count > smallCount ? firstHolder[isbn] : holders.first { $0.isbn == isbn }?.position
        }
        func addHolder(_ isbn: String, _ position: Int) {
            holders.append((isbn, position))
            if holders.count > smallCount {
                if firstHolder.isEmpty { for pair in holders.dropLast() { firstHolder[pair.isbn] = pair.position } }
                firstHolder[isbn] = position
            }
        }
        var firstWithoutISBN: Int?
        for position in works.indices where works[position].synthetic {
            if isbnsOfWork[position].isEmpty {
                guard strategy.selects(.dedupMergesMissingISBN) else { continue }
                if let first = firstWithoutISBN { join(first, position) } else { firstWithoutISBN = position }
            }
            for isbn in isbnsOfWork[position] {
                if let holder = holder(isbn) { join(holder, position) } else { addHolder(isbn, position) }
            }
        }

        var groupOfRoot = Array(repeating: -1, count: works.count)
        var groups: [WorkGroup] = []
        for position in works.indices {
            let r = root(position)
            if groupOfRoot[r] < 0 {
                groupOfRoot[r] = groups.count
                groups.append(WorkGroup(members: [], volumeIDs: [], editions: [], authors: []))
            }
            let g = groupOfRoot[r]
            groups[g].members.append(position)
            for volume in works[position].googleBooksVolumeIDs where !groups[g].volumeIDs.contains(volume) {
                groups[g].volumeIDs.append(volume)
            }
        }
        for e in data.editions.indices {
            if strategy.selects(.allEditionsToEveryWork) {
                for g in groups.indices { groups[g].editions.append(e) }
            } else if let workID = data.editions[e].workId, let position = position(workID) {
                groups[groupOfRoot[root(position)]].editions.append(e)
            }
        }
        for (a, author) in data.authors.enumerated() {
            if strategy.selects(.allAuthorsToEveryWork) {
                for g in groups.indices { groups[g].authors.append(a) }
                continue
            }
            var added: [Int] = []
            for workID in author.workIds {
                guard let position = position(workID) else { continue }
                let g = groupOfRoot[root(position)]
                if !added.contains(g) {
                    added.append(g)
                    groups[g].authors.append(a)
                }
            }
        }
        if strategy.selects(.dedupDropsSingletons) {
            groups.removeAll { group in
                group.members.count == 1 && works[group.members[0]].synthetic && !isbnsOfWork[group.members[0]].isEmpty
            }
        }
        return groups
    }
}

extension Fault<DTOMapper> {
    /// Mutant `dedup-drops-singletons`: seed 002 as printed, a synthetic work whose ISBN no other shares is dropped.
    package static var dedupDropsSingletons: Self { Self() }
    /// Mutant `dedup-merges-missing-isbn`: seed 002 as printed, synthetic works without ISBN are grouped under ""
    /// and merged.
    package static var dedupMergesMissingISBN: Self { Self() }
    /// Mutant `editions-to-every-work`: seed 002's `insertEditions(data.editions, …)` for every work.
    package static var allEditionsToEveryWork: Self { Self() }
    /// Mutant `authors-to-every-work`: seed 002's `insertAuthors(data.authors, …)` for every work.
    package static var allAuthorsToEveryWork: Self { Self() }
}
