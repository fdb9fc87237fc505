import GraphFuzzEngine
import MapperSpec
@testable import MapperTarget
import Testing

@Suite("mapper target: malformed bodies")
struct MalformedBodyTests {
    /// A `mapMalformed` step writes its body directly (`MalformedBody`); the Swift export prints the body built
    /// through `JSONSerialization`. Both must be the same text, for every required path of generated responses
    /// (and for a path no response has, which leaves the body whole).
    @Test("The body a step maps is the text JSONSerialization writes, for every missing path")
    func sameText() {
        var compared = 0
        for seed in 1...300 as ClosedRange<UInt64> {
            let response = ResponseGenerator.response(Draw(seed: seed))
            for missing in response.requiredPaths + ["data.works[9].title"] {
                let reference = MapperSystem.body(response, missing: missing)
                #expect(MalformedBody.text(MapperSystem.dto(response), missing: missing) == reference, "seed \(seed), missing \(missing)")
                compared += 1
            }
        }
        #expect(compared > 1_500)
    }

    /// The body's writer appends a string with nothing to escape whole: every value renders as the engine renders it,
    /// strings with quotes, backslashes, control characters and non-ASCII text included.
    @Test("The body's writer renders every value as JSONValue.rendered does")
    func sameRendering() {
        let strings = ["", "plain", "a \"quoted\" word", "back\\slash", "tab\there", "line\nbreak", "bell\u{7}", "\u{1F}",
                       "caf\u{E9}", "\u{1F4DA} books", "slash/ok", "\u{7F}"]
        let values: [JSONValue] = strings.map(JSONValue.string) + [
            .null, .bool(true), .bool(false), .int(-42), .uint(7), .double(2.5), .double(3), .double(.infinity),
            .array(strings.map(JSONValue.string)),
            .object(strings.enumerated().map { ($1, .array([.int($0), .string($1)])) }),
            .array([.object([]), .array([]), .object([("k", .null)])]),
        ]
        for value in values {
            var text = ""
            MalformedBody.render(value, into: &text)
            #expect(text == value.rendered, "\(value.rendered)")
        }
    }
}
