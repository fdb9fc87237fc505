@testable import GraphFuzzEngine
@testable import MapperSpec
@testable import MapperTarget
import Testing

@Suite("mapper specification")
struct MapperSpecTests {
    /// `createdCount` follows only the volume IDs live works hold; it must agree with running the whole mapping.
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

    static func work(_ title: Int = 0, synthetic: Bool = false, tags: [Int] = [], provider: Int? = nil, volumes: [Int] = []) -> SpecResponse.Work {
        SpecResponse.Work(title: title, tags: tags, synthetic: synthetic, provider: provider, volumes: volumes)
    }

    /// The rule and kind the engine names for `observed` against `predicted`.
    static func verdict(_ predicted: Prediction<MapperObservation>, _ observed: MapperObservation) -> (rule: String, kind: FailureKind) {
        let failure = predicted.mismatch(observed, trace: TraceStep("map"))
        return (failure.rule, failure.kind)
    }

    /// A group the grouping part lacks is located there, under the rule that made that group, before the context part
    /// (where the dropped work shows only as a missing edition: w2's group maps onto w1's work by the shared vol-A).
    @Test("The grouping part is located first, under the rule that made the group")
    func groupingPartFirst() {
        let response = SpecResponse(works: [Self.work(volumes: [0]), Self.work(synthetic: true, provider: 0, volumes: [0])],
                                    editions: [SpecResponse.Edition(isbn: 0, work: 1)], authors: [])
        #expect(response.groups.map(\.rule) == [MapperRules.nonSyntheticKept, MapperRules.singletonKept])
        var model = MapperModel()
        let predicted = model.map(response)
        guard case .mapped(let works, let groups) = predicted.value else { Issue.record("not a mapping"); return }
        #expect(groups.map(\.volumeIDs) == [["w1"], ["w2"]] && works.count == 1)
        // As if w2 were dropped: w1's work alone, in both parts.
        var alone = MapperModel()
        guard case .mapped(let onlyFirst, let firstGroup) = alone.map(SpecResponse(works: [response.works[0]], editions: [], authors: [])).value
        else { return }
        #expect(Self.verdict(predicted, .mapped(onlyFirst, groups: firstGroup)) == (MapperRules.singletonKept, .mismatch))
        #expect(Self.verdict(predicted, .mapped(onlyFirst, groups: groups)) == (MapperRules.ownEditions, .mismatch))
        // Two synthetic works without ISBN observed as one: M4; a merged group observed split: M2.
        let twoWithout = SpecResponse(works: [Self.work(synthetic: true), Self.work(1, synthetic: true)], editions: [], authors: [])
        #expect(twoWithout.groups.map(\.rule) == [MapperRules.missingISBNNotMerged, MapperRules.missingISBNNotMerged])
        var pair = MapperModel()
        let apart = pair.map(twoWithout)
        guard case .mapped(let both, let two) = apart.value else { return }
        var merged = two[0]
        merged.volumeIDs = ["w1", "w2"]
        #expect(Self.verdict(apart, .mapped(both, groups: [merged])) == (MapperRules.missingISBNNotMerged, .mismatch))
        let sharing = SpecResponse(works: [Self.work(synthetic: true), Self.work(1, synthetic: true)],
                                   editions: [SpecResponse.Edition(isbn: 0, work: 0), SpecResponse.Edition(isbn: nil, work: 1, isbns: [0])],
                                   authors: [])
        #expect(sharing.groups.map(\.rule) == [MapperRules.sharedISBNMerged])
        var one = MapperModel()
        let together = one.map(sharing)
        guard case .mapped(let single, let oneGroup) = together.value else { return }
        var split = [oneGroup[0], oneGroup[0]]
        (split[0].volumeIDs, split[1].volumeIDs) = (["w1"], ["w2"])
        #expect(Self.verdict(together, .mapped(single, groups: split)) == (MapperRules.sharedISBNMerged, .mismatch))
    }

    /// Which work a group maps onto is decided by M9 when a live work holds one of its volume IDs, by M10 otherwise; the
    /// schema's limits (M14) decide the parts they change; a trap is M11's, at a relaunch M15's.
    @Test("Each part is reported under the rule that decided it")
    func partRules() {
        var model = MapperModel()
        let plain = SpecResponse(works: [Self.work(volumes: [0])], editions: [], authors: [])
        _ = model.map(plain)
        let again = model.map(plain)
        guard case .mapped(let works, let groups) = again.value else { Issue.record("not a mapping"); return }
        #expect(works.map(\.ref) == [0])
        // A duplicate in its place: M9; a work not live: M10.
        #expect(Self.verdict(again, .mapped([MappedWork(ref: 1, work: works[0].work)], groups: groups)).rule == MapperRules.knownVolumeReused)
        #expect(Self.verdict(again, .mapped([MappedWork(ref: 0, work: works[0].work, isLive: false)], groups: groups)).rule
                == MapperRules.deletedYieldsFresh)
        model.discardPending()
        #expect(model.isStale(0))
        let fresh = model.map(plain)
        guard case .mapped(let freshWorks, _) = fresh.value else { return }
        #expect(freshWorks.map(\.ref) == [1])
        #expect(Self.verdict(fresh, .mapped([MappedWork(ref: 0, work: freshWorks[0].work)], groups: groups)).rule == MapperRules.deletedYieldsFresh)
        #expect(Self.verdict(fresh, .trap(code: "invalidatedBackingData", message: "")) == (MapperRules.noStaleRead, .trap))
        #expect(Self.verdict(model.relaunch(), .trap(code: "relaunchFailed", message: "")) == (MapperRules.survivesRelaunch, .trap))
        #expect(Self.verdict(.step(.done, rule: MapperRules.storeMatches), .trap(code: "mutatingDeletedModel", message: "")).rule
                == MapperRules.noStaleRead)
        // Four authors and an edition whose page count the schema rejects: M14 decides the author count and the details;
        // the authors' names stay M6's, the editions M5's.
        let rich = SpecResponse(works: [Self.work(synthetic: true)], editions: [SpecResponse.Edition(isbn: 0, work: 0, pageCount: 3)],
                                authors: (0..<4).map { SpecResponse.Author(name: $0, works: [0]) })
        var limited = MapperModel()
        let predicted = limited.map(rich)
        guard case .mapped(let kept, let keptGroups) = predicted.value else { return }
        #expect(kept[0].work.authors.count == MapperVocabulary.maxAuthors && kept[0].work.editionDetails == ["9780000000001/-/-/-"])
        func observed(_ change: (inout CanonicalWork) -> Void) -> MapperObservation {
            var group = keptGroups[0], work = kept[0]
            change(&group)
            change(&work.work)
            return .mapped([work], groups: [group])
        }
        #expect(Self.verdict(predicted, observed { $0.authors.append("Octavia E. Butler") }).rule == MapperRules.savableGraph)
        #expect(Self.verdict(predicted, observed { $0.authors[0] = "Ursula K. Le Guin" }).rule == MapperRules.ownAuthors)
        #expect(Self.verdict(predicted, observed { $0.editionDetails = ["9780000000001/-/-/0"] }).rule == MapperRules.savableGraph)
        #expect(Self.verdict(predicted, observed { $0.editionISBNs = [] }).rule == MapperRules.ownEditions)
        #expect(Self.verdict(predicted, observed { $0.tags = ["Fiction"] }).rule == MapperRules.tagsPassThrough)
        #expect(Self.verdict(predicted, observed { $0.provider = "isbndb" }).rule == MapperRules.providerKept)
    }
}
