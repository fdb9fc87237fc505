import GraphFuzzEngine
import MapperSpec

/// Writes a response as a trace step and reads it back:
/// `v1 = map(works: [["Dune", ["Fiction"], false, "openlibrary", ["vol-A"]]], editions: [["9780000000001", "w1"]], authors: [["Ann Leckie", ["w1"]]])`.
/// A work is `[title, tags, synthetic, provider or nil, volume IDs]`, an edition `[ISBN or nil, work id]` or, when it
/// sends more, `[ISBN or nil, work id, further ISBNs, title or nil, publisher or nil, page count or nil]`,
/// an author `[name, work ids]`; work ids are `w1`, `w2`, … by position.
enum ResponseTrace {
    static func step(_ response: SpecResponse, result: Ref?) -> TraceStep {
        typealias V = MapperVocabulary
        let works = response.works.map { work -> TraceValue in
            .list([.string(V.titles[work.title]), .list(work.tags.map { .string(V.tags[$0]) }), .bool(work.synthetic),
                   work.provider.map { .string(V.providers[$0]) } ?? .null, .list(work.volumes.map { .string(V.volumeIDs[$0]) })])
        }
        let editions = response.editions.map { edition -> TraceValue in
            let plain: [TraceValue] = [edition.isbn.map { .string(V.isbns[$0]) } ?? .null, .string(V.workID(edition.work))]
            guard edition.isRich else { return .list(plain) }
            return .list(plain + [.list(edition.isbns.map { .string(V.isbns[$0]) }),
                                  edition.title.map { .string(V.editionTitles[$0]) } ?? .null,
                                  edition.publisher.map { .string(V.publishers[$0]) } ?? .null,
                                  edition.pageCount.map { .int(V.pageCounts[$0]) } ?? .null])
        }
        let authors = response.authors.map { author -> TraceValue in
            .list([.string(V.authors[author.name]), .list(author.works.map { .string(V.workID($0)) })])
        }
        return TraceStep("map", result: result, [.init("works", .list(works)), .init("editions", .list(editions)), .init("authors", .list(authors))])
    }

    static func response(_ step: TraceStep) throws(TraceError) -> SpecResponse {
        typealias V = MapperVocabulary
        var works: [SpecResponse.Work] = []
        for value in try step.list("works") {
            let fields = try parts(value, 5, "a work")
            works.append(SpecResponse.Work(
                title: try index(fields[0], V.titles, "title"),
                tags: try list(fields[1], "tags").map { (tag) throws(TraceError) in try index(tag, V.tags, "tag") },
                synthetic: try bool(fields[2]),
                provider: fields[3] == .null ? nil : try index(fields[3], V.providers, "provider"),
                volumes: try list(fields[4], "volume IDs").map { (volume) throws(TraceError) in try index(volume, V.volumeIDs, "volume ID") }))
        }
        var editions: [SpecResponse.Edition] = []
        for value in try step.list("editions") {
            let fields = try parts(value, [2, 6], "an edition")
            let rich = fields.count == 6
            editions.append(SpecResponse.Edition(
                isbn: fields[0] == .null ? nil : try index(fields[0], V.isbns, "ISBN"), work: try workPosition(fields[1]),
                isbns: rich ? try list(fields[2], "ISBNs").map { (isbn) throws(TraceError) in try index(isbn, V.isbns, "ISBN") } : [],
                title: rich && fields[3] != .null ? try index(fields[3], V.editionTitles, "edition title") : nil,
                publisher: rich && fields[4] != .null ? try index(fields[4], V.publishers, "publisher") : nil,
                pageCount: rich && fields[5] != .null ? try pageCount(fields[5]) : nil))
        }
        var authors: [SpecResponse.Author] = []
        for value in try step.list("authors") {
            let fields = try parts(value, 2, "an author")
            authors.append(SpecResponse.Author(
                name: try index(fields[0], V.authors, "author"),
                works: try list(fields[1], "work ids").map { (id) throws(TraceError) in try workPosition(id) }))
        }
        return SpecResponse(works: works, editions: editions, authors: authors)
    }

    private static func parts(_ value: TraceValue, _ count: Int, _ what: String) throws(TraceError) -> [TraceValue] {
        try parts(value, [count], what)
    }

    private static func parts(_ value: TraceValue, _ counts: [Int], _ what: String) throws(TraceError) -> [TraceValue] {
        guard case .list(let fields) = value, counts.contains(fields.count) else {
            let sizes = counts.map(String.init).joined(separator: " or ")
            throw TraceError("map: \(what) must be a list of \(sizes) values, found \(value)")
        }
        return fields
    }

    private static func pageCount(_ value: TraceValue) throws(TraceError) -> Int {
        guard case .int(let count) = value, let position = MapperVocabulary.pageCounts.firstIndex(of: count) else {
            throw TraceError("map: page count \(value) is not one of \(MapperVocabulary.pageCounts)")
        }
        return position
    }

    private static func list(_ value: TraceValue, _ what: String) throws(TraceError) -> [TraceValue] {
        guard case .list(let values) = value else { throw TraceError("map: \(what) must be a list, found \(value)") }
        return values
    }

    private static func bool(_ value: TraceValue) throws(TraceError) -> Bool {
        guard case .bool(let flag) = value else { throw TraceError("map: synthetic must be true or false, found \(value)") }
        return flag
    }

    private static func index(_ value: TraceValue, _ pool: [String], _ what: String) throws(TraceError) -> Int {
        guard case .string(let text) = value, let position = pool.firstIndex(of: text) else {
            throw TraceError("map: \(what) \(value) is not one of \(pool)")
        }
        return position
    }

    private static func workPosition(_ value: TraceValue) throws(TraceError) -> Int {
        guard case .string(let text) = value, text.first == "w", let number = Int(text.dropFirst()), (1...9).contains(number) else {
            throw TraceError("map: work id \(value) is not w1…w9")
        }
        return number - 1
    }
}
