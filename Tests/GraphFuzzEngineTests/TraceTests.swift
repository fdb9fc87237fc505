import GraphFuzzEngine
import Testing

@Suite("Trace format")
struct TraceTests {
    @Test("a step round-trips through its text, escapes included")
    func roundTrip() throws {
        let step = TraceStep("createWork", result: Ref(2), [
            .init("title", .string("Dune \"1\"\n\\ é")), .init("count", .int(-42)), .init("ok", .bool(true)),
            .init("other", .ref(Ref(0))), .init("none", .null), .init("tags", .list([.string("a"), .int(1)])),
        ])
        #expect(step.description.hasPrefix("v3 = createWork(title: "))
        #expect(try TraceStep(parsing: Substring(step.description)) == step)
    }

    @Test("malformed steps give an error naming the column", arguments: [
        "push(", "v0 = push()", "push(value 3)", "push(value: \"abc)", "push(value: 3) extra", "= push()",
    ])
    func malformed(_ text: String) {
        #expect(throws: TraceError.self) { try TraceStep(parsing: Substring(text)) }
        do { _ = try TraceStep(parsing: Substring(text)) } catch { #expect(error.message.contains("column")) }
    }

    @Test("typed readers name the argument and the step")
    func readers() throws {
        let step = try TraceStep(parsing: "push(value: 300)")
        #expect(throws: TraceError("argument 'value' of 'push' is 300, outside 0...99")) { try step.int("value", in: 0...99) }
        #expect(throws: TraceError("step 'push' has no argument 'key'")) { try step.int("key") }
    }
}
