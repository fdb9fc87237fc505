@testable import GraphFuzzEngine
import Testing

/// A shelf's reading: the books it holds, and its label. A predicted reading carries, per book, the rule that last
/// put it there or took it away (its provenance), as a specification whose state several rules change may record.
private struct Shelf: Equatable, ObservationParts {
    var books: [Int]
    var label: String
    /// A prediction only: by book, the rule that last decided whether the shelf holds it.
    var decidedBy: [Int: String] = [:]

    static func == (lhs: Shelf, rhs: Shelf) -> Bool { lhs.books == rhs.books && lhs.label == rhs.label }

    var parts: [(label: String, value: String)] { [("books", books.map(String.init).joined(separator: " ")), ("label", label)] }

    /// The rule of the first book only one of the two shelves holds.
    func rule(ofPart label: String, observed: Shelf) -> String? {
        guard label == "books" else { return nil }
        let differing = (books.filter { !observed.books.contains($0) } + observed.books.filter { !books.contains($0) }).min()
        return differing.flatMap { decidedBy[$0] }
    }
}

@Suite("provenance: a predicted value names the rule that last decided the part that differs")
struct ProvenanceTests {
    fileprivate static var predicted: Prediction<Shelf> {
        Prediction(Shelf(books: [1, 2], label: "A", decidedBy: [1: "P1", 2: "P2", 3: "P3"]), rule: "P0")
            .part("books", rule: "PD").part("label", rule: "PL")
    }

    fileprivate static func rule(_ observed: Shelf) -> String { predicted.mismatch(observed, trace: TraceStep("look")).rule }

    @Test("the rule of the value that differs, before the part's declared rule and the prediction's")
    func provenanceFirst() {
        #expect(Self.rule(Shelf(books: [1], label: "A")) == "P2")
        #expect(Self.rule(Shelf(books: [1, 2, 3], label: "A")) == "P3")
        #expect(Self.rule(Shelf(books: [2], label: "A")) == "P1")
    }

    @Test("a part without provenance keeps its declared rule, then the prediction's")
    func withoutProvenance() {
        #expect(Self.rule(Shelf(books: [1, 2], label: "B")) == "PL")
        #expect(Self.rule(Shelf(books: [1, 2, 4], label: "A")) == "PD")
        var untagged = Prediction(Shelf(books: [1], label: "A"), rule: "P0")
        #expect(untagged.mismatch(Shelf(books: [], label: "A"), trace: TraceStep("look")).rule == "P0")
        untagged = untagged.part("books", rule: "PD")
        #expect(untagged.mismatch(Shelf(books: [], label: "A"), trace: TraceStep("look")).rule == "PD")
    }

    @Test("provenance is no part of the value: equal readings with different provenance are equal")
    func notCompared() {
        #expect(Shelf(books: [1], label: "A", decidedBy: [1: "P1"]) == Shelf(books: [1], label: "A"))
        #expect(Self.predicted.allows(Shelf(books: [1, 2], label: "A")))
    }
}
