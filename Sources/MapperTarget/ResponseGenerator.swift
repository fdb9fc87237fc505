import GraphFuzzEngine
import MapperSpec

/// Random responses: up to three works, small pools so ISBNs are shared and missing, volume IDs
/// repeat, works are synthetic or not, and authors write several works. The simplest choice of each
/// decision comes first.
enum ResponseGenerator {
    /// At most this many works per response.
    static let maxWorks = 3

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
        // A work position equal to the number of works names no work of the response (a stray link).
        let editions = list(draw, maxCount: 3, average: 1.5) {
            SpecResponse.Edition(
                isbn: draw.chooseBool(probability: 0.7) ? Int(draw.choose(upTo: UInt64(MapperVocabulary.isbns.count - 1))) : nil,
                work: Int(draw.choose(upTo: UInt64(works.count))))
        }
        var names = Array(MapperVocabulary.authors.indices)
        var authors: [SpecResponse.Author] = []
        draw.beginSpan(.list)
        while !names.isEmpty {
            draw.beginSpan(.element)
            defer { draw.endSpan() }
            guard draw.chooseBool(probability: 0.55) else { break }
            let name = names.remove(at: Int(draw.choose(upTo: UInt64(names.count - 1))))
            let written = list(draw, maxCount: 2, average: 1) { Int(draw.choose(upTo: UInt64(works.count))) }
            authors.append(SpecResponse.Author(name: name, works: written))
        }
        draw.endSpan()
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
        guard response.authors.allSatisfy({ $0.works.allSatisfy { $0 < 9 } }) else { return false }
        let names = response.authors.map(\.name)
        return Set(names).count == names.count
    }
}
