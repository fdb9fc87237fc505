import BooksTracker
import Foundation
import GraphFuzzEngine
import MapperSpec
@testable import MapperTarget
import Testing

@Suite("mapper target: malformed bodies")
struct MalformedBodyTests {
    /// A `mapMalformed` step maps, and the Swift export prints, the body `MalformedBody` writes directly. It must be
    /// the text `JSONSerialization` makes of the DTOs, for every required path of generated responses (and for a path
    /// no response has, which leaves the body whole).
    @Test("The body a step maps is the text JSONSerialization writes, for every missing path")
    func sameText() {
        var compared = 0
        for seed in 1...300 as ClosedRange<UInt64> {
            let response = ResponseGenerator.response(Draw(seed: seed))
            for missing in response.requiredPaths + ["data.works[9].title"] {
                let data = MapperSystem.dto(response)
                #expect(MalformedBody.text(data, missing: missing) == Self.reference(data, missing: missing), "seed \(seed), missing \(missing)")
                compared += 1
            }
        }
        #expect(compared > 1_500)
    }

    /// Strings are escaped as `JSONSerialization` escapes them: every ASCII character, slashes unescaped, the rest of
    /// Unicode as it is.
    @Test("Every ASCII character, and characters beyond, are written as JSONSerialization writes them")
    func escaping() {
        let ascii = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
        let data = SearchResponseData(
            works: [WorkDTO(id: "w/1", title: ascii, subjectTags: ["é\u{301}", "\u{2028}\u{7F}\u{85}"], googleBooksVolumeIDs: ["\u{1F600}"])],
            editions: [EditionDTO(isbn: "\u{8}\u{C}", isbns: [ascii], title: nil, publisher: "\"\\/", pageCount: 7, workId: "w/1")],
            authors: [AuthorDTO(name: "\u{0}\u{1F}", workIds: ["w/1"])])
        for missing in ["", "data.works[0].title", "data.editions[0].isbns"] {
            #expect(MalformedBody.text(data, missing: missing) == Self.reference(data, missing: missing), "missing \(missing)")
        }
    }

    /// The `/v1/*` body of `data` (`{"success": true, "data": …}`, keys sorted, slashes unescaped) without the field at
    /// `missing`, through `JSONEncoder`, `JSONSerialization.jsonObject` and `JSONSerialization.data`.
    static func reference(_ data: SearchResponseData, missing: String) -> String {
        let object = (try? JSONEncoder().encode(data)).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? [:]
        let envelope = removing(path(missing), from: ["success": true, "data": object])
        let json = (try? JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: json, as: UTF8.self)
    }

    /// `data.works[1].title` as keys and indexes: `["data", "works", 1, "title"]`.
    private static func path(_ text: String) -> [Any] {
        text.split(separator: ".").flatMap { component -> [Any] in
            let parts = component.split(separator: "[")
            return [String(parts[0])] + parts.dropFirst().compactMap { Int($0.dropLast()) }
        }
    }

    private static func removing(_ path: [Any], from value: Any) -> Any {
        guard let head = path.first else { return value }
        let rest = Array(path.dropFirst())
        if let key = head as? String, var object = value as? [String: Any] {
            if rest.isEmpty { object[key] = nil } else if let inner = object[key] { object[key] = removing(rest, from: inner) }
            return object
        }
        if let index = head as? Int, var array = value as? [Any], array.indices.contains(index) {
            array[index] = removing(rest, from: array[index])
            return array
        }
        return value
    }
}
