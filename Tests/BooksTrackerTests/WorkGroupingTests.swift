import FaultPoints
import Testing
@testable import BooksTracker

/// `WorkGrouping.groups` finds work IDs and ISBNs by scanning small lists and by hashing large ones. The mapper
/// target's responses hold at most three works, so the hashed way is never reached by a search: this test runs
/// both ways on larger responses (up to 40 works, duplicate and unknown work IDs, ISBNs shared across works) and
/// requires the same groups, for the shipped mapper and for each grouping fault.
@Suite("work grouping: scanned and hashed lookups agree")
struct WorkGroupingTests {
    /// A small deterministic generator (SplitMix64), so a failure names its response by its case number.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func response(_ generator: inout Generator) -> SearchResponseData {
        let workCount = generator.next(41)
        // IDs from a pool a little smaller than the works, so some repeat; editions and authors also name IDs
        // that no work has.
        let ids = (0..<max(1, workCount)).map { "w\($0 % max(1, workCount - workCount / 8))" }
        let isbns = (0..<24).map { "isbn-\($0)" }
        let works = (0..<workCount).map { position in
            WorkDTO(id: ids[position], title: "t", synthetic: generator.next(3) > 0,
                    googleBooksVolumeIDs: (0..<generator.next(3)).map { _ in "v\(generator.next(30))" })
        }
        let editions = (0..<generator.next(61)).map { _ in
            EditionDTO(isbn: generator.next(4) == 0 ? nil : isbns[generator.next(isbns.count)],
                       isbns: (0..<generator.next(3)).map { _ in isbns[generator.next(isbns.count)] },
                       workId: generator.next(10) == 0 ? nil : "w\(generator.next(workCount + 3))")
        }
        let authors = (0..<generator.next(12)).map { a in
            AuthorDTO(name: "a\(a)", workIds: (0..<generator.next(4)).map { _ in "w\(generator.next(workCount + 3))" })
        }
        return SearchResponseData(works: works, editions: editions, authors: authors)
    }

    /// A group as comparable values.
    static func summary(_ groups: [WorkGroup]) -> [[[String]]] {
        groups.map { [$0.members.map(String.init), $0.volumeIDs, $0.editions.map(String.init), $0.authors.map(String.init)] }
    }

    static let strategies: [MapperStrategy] = [
        .shipped, MapperStrategy(.dedupDropsSingletons), MapperStrategy(.dedupMergesMissingISBN),
        MapperStrategy(.allEditionsToEveryWork), MapperStrategy(.allAuthorsToEveryWork),
    ]

    @Test("300 responses of up to 40 works: the same groups whether lookups scan or hash")
    func scannedAndHashedAgree() {
        var generator = Generator(state: 12)
        var largeCases = 0, mergedGroups = 0
        for number in 0..<300 {
            let data = Self.response(&generator)
            if data.works.count > WorkGrouping.smallCount { largeCases += 1 }
            for strategy in Self.strategies {
                let scanned = WorkGrouping.groups(data, strategy, smallCount: .max)
                let hashed = WorkGrouping.groups(data, strategy, smallCount: 0)
                #expect(Self.summary(scanned) == Self.summary(hashed), "case \(number), faults \(strategy)")
                #expect(Self.summary(WorkGrouping.groups(data, strategy)) == Self.summary(scanned), "case \(number), faults \(strategy)")
                mergedGroups += scanned.filter { $0.members.count > 1 }.count
            }
        }
        // The responses reach the hashed way by default and merge works, so the comparison is not vacuous.
        #expect(largeCases > 50)
        #expect(mergedGroups > 100)
    }
}
