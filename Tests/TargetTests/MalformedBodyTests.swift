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
}
