import BooksTracker
import GraphFuzzEngine
import MapperSpec

/// The specification's state plus the responses mapped so far (to map the same volume IDs again).
public struct MapperState: Sendable {
    public var spec = MapperModel()
    public var responses: [SpecResponse] = []
}

/// The `mapper` target: random sequences of mappings, saves, rollbacks, deletes here and elsewhere,
/// cache clears and fresh contexts, with the mapper's returned works and the saved store compared to
/// `MapperModel` after every step.
public struct MapperMachine: StateMachine, Sendable {
    public typealias Config = MapperConfig
    public typealias Model = MapperState
    public typealias System = MapperSystem
    public typealias Command = MapperCommand
    public typealias Observation = MapperObservation

    public let strategy: MapperStrategy

    public init(strategy: MapperStrategy = .shipped) { self.strategy = strategy }

    public func makeConfig(_ draw: Draw) -> MapperConfig { MapperConfig.draw(draw) }
    public func makeModel(_ config: MapperConfig) -> MapperState { MapperState() }
    public func makeSystem(_ config: MapperConfig) throws -> MapperSystem { MapperSystem(config: config, strategy: strategy) }
    public func tearDown(_ system: inout MapperSystem) { system.tearDown() }

    // MARK: Generation

    /// Step kinds, simplest first: map, save, rollback, delete here, delete elsewhere, clear the cache,
    /// a fresh context, map an earlier response again.
    private static let weights: [UInt32] = [36, 16, 7, 10, 8, 4, 6, 13]

    public func nextCommand(_ model: MapperState, _ draw: Draw) -> MapperCommand? {
        switch draw.chooseWeighted(Self.weights) {
        case 0: return mapCommand(ResponseGenerator.response(draw), model)
        case 1: return .save
        case 2: return .rollback
        case 3:
            let live = model.spec.works.indices.filter { model.spec.isLive($0) }
            guard !live.isEmpty else { return .save }
            let ref = live[Int(draw.choose(upTo: UInt64(live.count - 1)))]
            return .deleteWork(Ref(ref), evict: !draw.chooseBool(probability: 0.5))
        case 4:
            let saved = model.spec.works.indices.filter { model.spec.isDeletableElsewhere($0) }
            guard !saved.isEmpty else { return .save }
            return .deleteElsewhere(Ref(saved[Int(draw.choose(upTo: UInt64(saved.count - 1)))]))
        case 5: return .clearCache
        case 6: return .newContext
        default:
            guard !model.responses.isEmpty else { return mapCommand(ResponseGenerator.response(draw), model) }
            return mapCommand(model.responses[Int(draw.choose(upTo: UInt64(model.responses.count - 1)))], model)
        }
    }

    private func mapCommand(_ response: SpecResponse, _ model: MapperState) -> MapperCommand {
        .map(response, result: model.spec.createdCount(mapping: response) > 0 ? Ref(model.spec.nextRef) : nil)
    }

    public func precondition(_ command: MapperCommand, _ model: MapperState) -> Bool {
        switch command {
        case .map(let response, let result):
            guard ResponseGenerator.isWellFormed(response) else { return false }
            let expected = model.spec.createdCount(mapping: response) > 0 ? Ref(model.spec.nextRef) : nil
            return result == expected
        case .deleteWork(let ref, _): return model.spec.isLive(ref.index)
        case .deleteElsewhere(let ref): return model.spec.isDeletableElsewhere(ref.index)
        case .save, .rollback, .clearCache, .newContext: return true
        }
    }

    // MARK: Specification

    public func expect(_ command: MapperCommand, _ model: inout MapperState) -> Expectation<MapperObservation> {
        switch command {
        case .map(let response, _):
            if model.responses.count < 8, !model.responses.contains(response) { model.responses.append(response) }
            let refs = model.spec.map(response)
            let works = refs.map { MappedWork(ref: $0, work: model.spec.works[$0].current.canonical) }
            return Expectation(.mapped(works), rule: MapperRules.knownVolumeReused)
        case .save:
            model.spec.save()
        case .rollback, .newContext:
            model.spec.discardPending()
        case .deleteWork(let ref, _):
            model.spec.delete(ref.index)
        case .deleteElsewhere(let ref):
            model.spec.deleteElsewhere(ref.index)
        case .clearCache:
            return Expectation(.done, rule: MapperRules.knownVolumeReused)
        }
        return Expectation(.done, rule: MapperRules.storeMatches)
    }

    public func run(_ command: MapperCommand, _ system: inout MapperSystem) throws -> MapperObservation {
        switch command {
        case .map(let response, _): return system.map(response)
        case .save: return system.save()
        case .rollback: return system.rollback()
        case .deleteWork(let ref, let evict): return system.deleteWork(ref.index, evict: evict)
        case .deleteElsewhere(let ref): return system.deleteElsewhere(ref.index)
        case .clearCache: return system.clearCache()
        case .newContext: return system.newContext()
        }
    }

    public func compare(_ expected: Expectation<MapperObservation>, _ observed: MapperObservation,
                        _ command: MapperCommand) -> Failure? {
        if expected.allows(observed) { return nil }
        let message = "\(command.trace): expected \(expected.value), observed \(observed)"
        switch (expected.value, observed, command) {
        case (_, .trap, _):
            return Failure(rule: MapperRules.noStaleRead, kind: .trap, message: message)
        case (.mapped(let want), .mapped(let got), .map(let response, let result)):
            let rule = MappingDiagnosis.rule(response: response, expected: want, observed: got,
                                             firstNewRef: result?.index ?? Int.max)
            return Failure(rule: rule, kind: .mismatch, message: message)
        default:
            return Failure(rule: expected.rule, kind: .mismatch, message: message)
        }
    }

    public func checkInvariants(_ model: MapperState, _ system: MapperSystem) -> Failure? {
        guard system.storeChanged else { return nil }
        system.storeChanged = false
        let store = system.storeSnapshot()
        let want = (works: model.spec.storeWorks, editions: model.spec.storeEditionCount, authors: model.spec.savedAuthors)
        guard store.works != want.works || store.editions != want.editions || store.authors != want.authors else { return nil }
        return Failure(rule: MapperRules.storeMatches, kind: .invariant, message:
            "saved store: expected works \(want.works), \(want.editions) editions, \(want.authors) authors; found works \(store.works), \(store.editions) editions, \(store.authors) authors")
    }
}
