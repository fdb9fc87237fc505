import GraphFuzzEngine
@testable import MapperSpec
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

    /// Issue 12: a group the grouping part lacks is named by the rule that decided that group, even when the context
    /// part shows only a missing edition (the dropped work would have been reused by another group's volume ID).
    @Test("The grouping part is diagnosed first, by the rule that decided the missing group")
    func groupingPartFirst() {
        // w1 (not synthetic) and w2 (synthetic, an ISBN of its own) share vol-A: w2's group maps onto w1's work.
        let response = SpecResponse(
            works: [SpecResponse.Work(title: 0, tags: [], synthetic: false, provider: nil, volumes: [0]),
                    SpecResponse.Work(title: 0, tags: [], synthetic: true, provider: 0, volumes: [0])],
            editions: [SpecResponse.Edition(isbn: 0, work: 1)], authors: [])
        var model = MapperModel()
        let refs = model.map(response)
        let expected = refs.map { MappedWork(ref: $0, work: model.works[$0].current.canonical) }
        let groups = response.groupWorks
        #expect(groups.count == 2 && expected.count == 1)
        // As if w2 were dropped: w1's work alone.
        var alone = MapperModel()
        let onlyFirst = SpecResponse(works: [response.works[0]], editions: [], authors: [])
        let observed = alone.map(onlyFirst).map { MappedWork(ref: $0, work: alone.works[$0].current.canonical) }
        #expect(MappingDiagnosis.contextRule(expected: expected, observed: observed, firstNewRef: 0) == MapperRules.ownEditions)
        #expect(MappingDiagnosis.rule(response: response, expectedGroups: groups, observedGroups: Array(groups.prefix(1)),
                                      expected: expected, observed: observed, firstNewRef: 0) == MapperRules.singletonKept)
        // Two synthetic works without ISBN observed as one: M4; a merged group observed split: M2.
        let twoWithout = SpecResponse(works: [SpecResponse.Work(title: 0, tags: [], synthetic: true, provider: nil, volumes: []),
                                              SpecResponse.Work(title: 1, tags: [], synthetic: true, provider: nil, volumes: [])],
                                      editions: [], authors: [])
        let pair = twoWithout.groupWorks
        #expect(MappingDiagnosis.groupingRule(twoWithout, expected: pair, observed: [pair[0]]) == MapperRules.missingISBNNotMerged)
        #expect(MappingDiagnosis.groupingRule(twoWithout, expected: pair, observed: pair) == nil)
    }

    /// Coverage credits the rules whose function decided a part of the mapping, not a fixed list.
    @Test("A mapping names the rules that decided it")
    func decidingRules() {
        var model = MapperModel()
        let plain = SpecResponse(works: [SpecResponse.Work(title: 0, tags: [], synthetic: false, provider: nil, volumes: [0])],
                                 editions: [], authors: [])
        #expect(model.mapDeciding(plain).decided == [MapperRules.nonSyntheticKept])
        #expect(model.mapDeciding(plain).decided == [MapperRules.nonSyntheticKept, MapperRules.knownVolumeReused])
        model.discardPending()
        #expect(model.isStale(0))
        #expect(model.mapDeciding(plain).decided == [MapperRules.nonSyntheticKept, MapperRules.deletedYieldsFresh, MapperRules.noStaleRead])
        let rich = SpecResponse(
            works: [SpecResponse.Work(title: 0, tags: [1], synthetic: true, provider: 2, volumes: [])],
            editions: [SpecResponse.Edition(isbn: nil, work: 0, isbns: [1], pageCount: 3)],
            authors: (0..<4).map { SpecResponse.Author(name: $0, works: [0]) })
        var fresh = MapperModel()
        #expect(fresh.mapDeciding(rich).decided == [
            MapperRules.singletonKept, MapperRules.tagsPassThrough, MapperRules.providerKept, MapperRules.savableGraph,
            MapperRules.ownEditions, MapperRules.ownAuthors,
        ])
        #expect(fresh.mapDeciding(SpecResponse(works: [], editions: [], authors: [])).decided.isEmpty)
    }
}
