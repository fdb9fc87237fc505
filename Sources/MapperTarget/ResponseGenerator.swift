import GraphFuzzEngine
import MapperSpec

/// Random responses: up to three works, small pools so ISBNs (primary and further ones) are shared and missing,
/// volume IDs repeat, works are synthetic or not, editions differ in title, publisher and page count, and authors
/// write several works, repeat, and outnumber what a work may hold. The simplest choice of each
/// decision comes first.
enum ResponseGenerator {
    /// At most this many works per response.
    static let maxWorks = 3
    /// At most this many authors per response: more than a work may hold (`MapperVocabulary.maxAuthors`).
    static let maxAuthors = 5

    /// A position in `pool`, the first (simplest) value most likely after shrinking.
    private static func pick(_ draw: Draw, _ pool: [some Any]) -> Int {
        Int(draw.choose(upTo: UInt64(pool.count - 1)))
    }

    static func response(_ draw: Draw) -> SpecResponse {
        // Spans are opened and closed directly (not through the generic `Draw.span`): the same spans, and
        // so the same choice sequence, without a generic closure call per list on the hot path.
        draw.beginSpan(.value)
        defer { draw.endSpan() }
        let works = list(draw, maxCount: maxWorks, average: 1.5) {
            SpecResponse.Work(
                title: Int(draw.choose(upTo: UInt64(MapperVocabulary.titles.count - 1))),
                tags: list(draw, maxCount: 2, average: 1) { Int(draw.choose(upTo: UInt64(MapperVocabulary.tags.count - 1))) },
                synthetic: draw.chooseBool(probability: 0.5),
                provider: draw.chooseBool(probability: 0.8) ? Int(draw.choose(upTo: UInt64(MapperVocabulary.providers.count - 1))) : nil,
                volumes: list(draw, maxCount: 2, average: 1.2) { Int(draw.choose(upTo: UInt64(MapperVocabulary.volumeIDs.count - 1))) })
        }
        // A work position equal to the number of works names no work of the response (a stray link). An edition may
        // lack its primary ISBN, carry further ISBNs (shared across works, M2) and a title, publisher or page count
        // that differ from its siblings' (M5, M14).
        let editions = list(draw, maxCount: 3, average: 1.5) {
            SpecResponse.Edition(
                isbn: draw.chooseBool(probability: 0.7) ? pick(draw, MapperVocabulary.isbns) : nil,
                work: Int(draw.choose(upTo: UInt64(works.count))),
                isbns: list(draw, maxCount: 2, average: 0.4) { pick(draw, MapperVocabulary.isbns) },
                title: draw.chooseBool(probability: 0.2) ? pick(draw, MapperVocabulary.editionTitles) : nil,
                publisher: draw.chooseBool(probability: 0.2) ? pick(draw, MapperVocabulary.publishers) : nil,
                pageCount: draw.chooseBool(probability: 0.25) ? pick(draw, MapperVocabulary.pageCounts) : nil)
        }
        // Names may repeat (a backend listing one author twice) and a work may get more authors than the schema
        // allows (M14).
        let authors = list(draw, maxCount: maxAuthors, average: 1.5) {
            SpecResponse.Author(name: pick(draw, MapperVocabulary.authors),
                                works: list(draw, maxCount: 2, average: 1) { Int(draw.choose(upTo: UInt64(works.count))) })
        }
        return SpecResponse(works: works, editions: editions, authors: authors)
    }

    /// A list whose length is decided element by element ("more?" before each), so deleting an
    /// element's span deletes the element.
    static func list<T>(_ draw: Draw, maxCount: Int, average: Double, _ element: () -> T) -> [T] {
        let more = average / (average + 1)
        draw.beginSpan(.list)
        defer { draw.endSpan() }
        var result: [T] = []
        while result.count < maxCount {
            draw.beginSpan(.element)
            guard draw.chooseBool(probability: more) else {
                draw.endSpan()
                break
            }
            result.append(element())
            draw.endSpan()
        }
        return result
    }

    /// Whether `response` is one this target can generate (replayed traces are checked with it).
    static func isWellFormed(_ response: SpecResponse) -> Bool {
        guard response.works.count <= 9 else { return false }
        guard response.editions.allSatisfy({ $0.work < 9 }) else { return false }
        guard response.editions.allSatisfy({ $0.isbns.count <= 4 }) else { return false }
        return response.authors.count <= 9 && response.authors.allSatisfy({ $0.works.allSatisfy { $0 < 9 } })
    }
}
