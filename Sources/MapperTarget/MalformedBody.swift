import BooksTracker
import GraphFuzzEngine

/// The body of a `mapMalformed` step, which the step maps and the Swift export prints, built directly from the
/// response's DTOs: the text `JSONEncoder`, `JSONSerialization.jsonObject` and `JSONSerialization.data` with sorted
/// keys and unescaped slashes make of them, without boxing every value in `Any`. Keys in sorted order, compact, the
/// DTOs' synthesized `Encodable` fields (an optional field only when it has a value). `MalformedBodyTests` compares
/// it with that text for generated responses and every path, and for strings of every control character.
struct MalformedBody {
    /// The coding path of the field left out, as components: keys, and indexes into arrays.
    private let missing: [Component]
    /// The path of the value being built.
    private var path: [Component] = []

    enum Component: Equatable {
        case key(String)
        case index(Int)
    }

    /// The `/v1/*` envelope of `data` without the field at the coding path `missing` (`data.works[1].title`).
    static func text(_ data: SearchResponseData, missing: String) -> String {
        var body = MalformedBody(missing: components(missing))
        return body.object([("data", { $0.response(data) }), ("success", { _ in .bool(true) })]).renderedAsJSONSerialization
    }

    private init(missing: [Component]) { self.missing = missing }

    /// `data.works[1].title` as components: `data`, `works`, 1, `title`.
    static func components(_ path: String) -> [Component] {
        path.split(separator: ".").flatMap { part -> [Component] in
            let pieces = part.split(separator: "[")
            return [.key(String(pieces[0]))] + pieces.dropFirst().compactMap { Int($0.dropLast()) }.map(Component.index)
        }
    }

    private mutating func response(_ data: SearchResponseData) -> JSONValue {
        object([
            ("authors", { $0.array(data.authors) { body, author in body.author(author) } }),
            ("editions", { $0.array(data.editions) { body, edition in body.edition(edition) } }),
            ("works", { $0.array(data.works) { body, work in body.work(work) } }),
        ])
    }

    private mutating func work(_ work: WorkDTO) -> JSONValue {
        object([
            ("googleBooksVolumeIDs", { $0.strings(work.googleBooksVolumeIDs) }),
            ("id", { _ in .string(work.id) }),
            ("primaryProvider", Self.optional(work.primaryProvider)),
            ("subjectTags", { $0.strings(work.subjectTags) }),
            ("synthetic", { _ in .bool(work.synthetic) }),
            ("title", { _ in .string(work.title) }),
        ])
    }

    private mutating func edition(_ edition: EditionDTO) -> JSONValue {
        object([
            ("isbn", Self.optional(edition.isbn)),
            ("isbns", { $0.strings(edition.isbns) }),
            ("pageCount", edition.pageCount.map { count in { _ in .int(count) } }),
            ("primaryProvider", Self.optional(edition.primaryProvider)),
            ("publisher", Self.optional(edition.publisher)),
            ("title", Self.optional(edition.title)),
            ("workId", Self.optional(edition.workId)),
        ])
    }

    private mutating func author(_ author: AuthorDTO) -> JSONValue {
        object([("name", { _ in .string(author.name) }), ("workIds", { $0.strings(author.workIds) })])
    }

    private typealias Field = (key: String, value: ((inout MalformedBody) -> JSONValue)?)

    /// An optional string field: absent when nil (as the synthesized `encodeIfPresent` leaves it out).
    private static func optional(_ value: String?) -> ((inout MalformedBody) -> JSONValue)? {
        value.map { text in { _ in .string(text) } }
    }

    /// An object of `fields`, given in sorted key order; a nil value is an absent optional. The field at the
    /// missing path is left out.
    private mutating func object(_ fields: [Field]) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for (key, value) in fields {
            guard let value else { continue }
            path.append(.key(key))
            if path != missing { members.append((key, value(&self))) }
            path.removeLast()
        }
        return .object(members)
    }

    private mutating func array<Element>(_ elements: [Element], _ value: (inout MalformedBody, Element) -> JSONValue) -> JSONValue {
        var values: [JSONValue] = []
        for (index, element) in elements.enumerated() {
            path.append(.index(index))
            values.append(value(&self, element))
            path.removeLast()
        }
        return .array(values)
    }

    private mutating func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}
