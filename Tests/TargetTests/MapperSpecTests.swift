import GraphFuzzEngine
import MapperSpec
@testable import MapperTarget
import Testing

@Suite("mapper specification")
struct MapperSpecTests {
    /// `createdCount` follows only the held volume IDs; it must agree with running the whole mapping.
    @Test("createdCount predicts exactly how many works a mapping creates")
    func createdCountAgreesWithMap() {
        var checked = 0
        for seed in 1...150 as ClosedRange<UInt64> {
            let draw = Draw(seed: seed)
            var model = MapperModel()
            var responses: [SpecResponse] = []
            for _ in 0..<25 {
                switch draw.chooseUniform(upTo: 5) {
                case 0, 1:
                    let response = draw.chooseBool(probability: 0.3) && !responses.isEmpty
                        ? responses[Int(draw.chooseUniform(upTo: UInt64(responses.count - 1)))] : ResponseGenerator.response(draw)
                    responses.append(response)
                    let predicted = model.createdCount(mapping: response)
                    let before = model.nextRef
                    _ = model.map(response)
                    #expect(model.nextRef - before == predicted)
                    checked += 1
                case 2: model.save()
                case 3: model.discardPending()
                default:
                    let live = (0..<model.nextRef).filter { model.isLive($0) }
                    guard !live.isEmpty else { continue }
                    let ref = live[Int(draw.chooseUniform(upTo: UInt64(live.count - 1)))]
                    if draw.chooseBool(), model.isDeletableElsewhere(ref) { model.deleteElsewhere(ref) } else { model.delete(ref) }
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test("Canonical works sort field by field, consistently with equality")
    func canonicalOrder() {
        let a = CanonicalWork(title: "Dune", tags: [], provider: nil, volumeIDs: ["vol-B"], editionISBNs: [nil], authors: [])
        let b = CanonicalWork(title: "Dune", tags: [], provider: "isbndb", volumeIDs: ["vol-A"], editionISBNs: [], authors: [])
        let c = CanonicalWork(title: "Dune", tags: [], provider: nil, volumeIDs: ["vol-B"], editionISBNs: [nil], authors: [])
        #expect(a < b && !(b < a))
        #expect(!(a < c) && !(c < a) && a == c)
        #expect([b, a].sorted() == [a, b])
    }
}
