import GraphFuzzEngine
import Testing

/// `JSONValue.rendered`: compact JSON, keys in the order written, strings escaped as JSON requires (a string with
/// nothing to escape is appended whole, any other scalar by scalar).
@Suite("JSON values render as compact, byte-stable JSON")
struct JSONValueTests {
    @Test("Strings: quotes, backslashes and control characters escaped; DEL and non-ASCII text kept", arguments: [
        ("", #""""#),
        ("plain", #""plain""#),
        ("slash/ok", #""slash/ok""#),
        ("a \"quoted\" word", #""a \"quoted\" word""#),
        ("back\\slash", #""back\\slash""#),
        ("tab\there", #""tab\there""#),
        ("line\nbreak\r", #""line\nbreak\r""#),
        ("bell\u{7}", #""bell\u0007""#),
        ("\u{1F}", #""\u001f""#),
        ("\u{7F}", "\"\u{7F}\""),
        ("caf\u{E9}", "\"caf\u{E9}\""),
        ("\u{1F4DA} books", "\"\u{1F4DA} books\""),
    ])
    func strings(_ text: String, _ json: String) {
        #expect(JSONValue.string(text).rendered == json)
    }

    @Test("Scalars, arrays and objects (keys escaped like strings, in the order written)")
    func composites() {
        #expect(JSONValue.null.rendered == "null")
        #expect(JSONValue.bool(true).rendered == "true")
        #expect(JSONValue.int(-42).rendered == "-42")
        #expect(JSONValue.uint(7).rendered == "7")
        #expect(JSONValue.double(2.5).rendered == "2.5")
        #expect(JSONValue.double(3).rendered == "3")
        #expect(JSONValue.double(.infinity).rendered == "null")
        let value = JSONValue.object([("z\"", .array([.int(1), .string("a\nb")])), ("a", .object([])), ("e", .array([]))])
        #expect(value.rendered == #"{"z\"":[1,"a\nb"],"a":{},"e":[]}"#)
    }
}
