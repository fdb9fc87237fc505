import BooksTracker
import GraphFuzzEngine
import GraphStore
import MapperSpec

/// The specification's state plus the responses mapped so far (to map the same volume IDs again).
public struct MapperState: Sendable {
    public var spec = MapperModel()
    public var responses: [SpecResponse] = []
}

extension MapperState {
    /// The earlier responses naming a volume ID whose work is gone and that no live work holds (`isStale`).
    var staleResponses: [Int] {
        responses.indices.filter { r in responses[r].works.contains { $0.volumes.contains(where: spec.isStale) } }
    }
}

/// The `mapper` target: random sequences of mappings, saves, rollbacks, deletes here and elsewhere,
/// cache clears and fresh contexts, with the mapper's returned works and the saved store compared to
/// `MapperModel` after every step.
public struct MapperMachine: StateMachine, Sendable {
    public typealias Config = MapperConfig
    public typealias Model = MapperState
    public typealias System = MapperSystem

    /// Concurrent enrichments: always two at once (seed 002's callers of the mapper, sharing volume IDs often: five in
    /// the pool), or one beside the user's delete or save, scheduled by a random walk as the cache's actor steps are;
    /// a lone one would cost a scheduled step (about ten ordinary ones) and find nothing a map step does not, which is
    /// why the user's steps only join an enrichment (`joinsOnly`). Groups of three, whose maps the walk reorders
    /// more, let the order that explains the most blame a branch's reference number rather than the mapping fault of
    /// another (a non-concurrency mutant reported under M10).
    public var concurrentSteps = ConcurrentSteps(groupProbability: 1, maxBranches: 2, strategy: .randomWalk)

    package let strategy: MapperStrategy
    /// Where on-disk cases keep their store files.
    let stores: ScratchStores

    /// - Parameter scratchFolder: an existing folder for on-disk cases' store files (nil: /dev/shm when the machine
    ///   has it, else the temporary directory).
    package init(strategy: MapperStrategy = .shipped, scratchFolder: String? = nil) {
        self.strategy = strategy
        stores = ScratchStores(folder: scratchFolder)
    }

    public func makeConfig(_ args: inout Arguments) -> MapperConfig { MapperConfig.draw(&args) }
    public func makeModel(_ config: MapperConfig) -> MapperState { MapperState() }
    public func makeSystem(_ config: MapperConfig) throws -> MapperSystem { try MapperSystem(config: config, strategy: strategy, stores: stores) }
    public func tearDown(_ system: inout MapperSystem) { system.tearDown() }
    /// The store's schema, derived from the model classes (`MapperSystem`).
    public func prepare() { _ = BooksTrackerSchema.schema(.cloudKit) }

    // MARK: Generation

    /// The actions, simplest first: map, save, rollback, delete here, delete elsewhere, clear the
    /// cache, a fresh context, map an earlier response again (its trace is a `map` step), relaunch, map a body that
    /// lacks a required field.
    public var actions: [Action<MapperMachine>] {
        // Each step's command draws (and, replayed, reads back) its own trace; a replayed one must apply in the state
        // the earlier steps leave.
        func command(_ draw: @escaping (MapperState, Draw) -> MapperCommand?) -> (inout Arguments, MapperState) throws -> MapperCommand {
            { args, model in try args.coded(applies: { applies($0, model) }) { draw(model, $0) } }
        }
        func coded(_ name: String, _ weight: UInt32, when: @escaping (MapperState) -> Bool = { _ in true },
                   _ draw: @escaping (MapperState, Draw) -> MapperCommand?) -> Action<MapperMachine> {
            Action(name, weight: weight, when: when, arguments: command(draw), predict: predict, perform: perform, swiftLines: swiftLines)
        }
        func coded(_ name: String, weights: @escaping (MapperState) -> UInt32, when: @escaping (MapperState) -> Bool,
                   _ draw: @escaping (MapperState, Draw) -> MapperCommand?) -> Action<MapperMachine> {
            Action(name, weights: weights, when: when, arguments: command(draw), predict: predict, perform: perform, swiftLines: swiftLines)
        }
        return [
            coded("map", 72) { m, d in mapCommand(ResponseGenerator.response(d), m) },
            coded("save", 32) { _, _ in .save },
            coded("rollback", 14) { _, _ in .rollback },
            coded("deleteWork", 20, when: { m in m.spec.works.indices.contains { m.spec.isLive($0) } }) { m, d in
                let live = m.spec.works.indices.filter { m.spec.isLive($0) }
                let ref = live[Int(d.choose(upTo: UInt64(live.count - 1)))]
                return .deleteWork(Ref(ref), evict: !d.chooseBool(probability: 0.5))
            },
            coded("deleteElsewhere", 16, when: { m in m.spec.works.indices.contains { m.spec.isDeletableElsewhere($0) } }) { m, d in
                let saved = m.spec.works.indices.filter { m.spec.isDeletableElsewhere($0) }
                return .deleteElsewhere(Ref(saved[Int(d.choose(upTo: UInt64(saved.count - 1)))]))
            },
            coded("clearCache", 8) { _, _ in .clearCache },
            coded("newContext", 12) { _, _ in .newContext },
            // The crash class: once a work is gone, mapping again a response naming one of its volume IDs
            // weighs more and is drawn most of the time (M10, M11).
            coded("mapAgain", weights: { m in m.staleResponses.isEmpty ? 26 : 52 }, when: { !$0.responses.isEmpty }) { m, d in
                let stale = m.staleResponses
                let pool = !stale.isEmpty && d.chooseBool(probability: 0.8) ? stale : Array(m.responses.indices)
                return mapCommand(m.responses[pool[Int(d.choose(upTo: UInt64(pool.count - 1)))]], m)
            },
            coded("relaunch", 8) { _, _ in .relaunch },
            coded("mapMalformed", 6) { _, d in
                let response = ResponseGenerator.response(d)
                let paths = response.requiredPaths
                return .mapMalformed(response, missing: paths[Int(d.choose(upTo: UInt64(paths.count - 1)))])
            },
            .concurrent("enrich", weight: 2,
                        arguments: { args, model in
                            try args.coded(applies: { applies($0, model) }) { d in MapperCommand.enrich(ResponseGenerator.response(d)) }
                        },
                        predict: { command, model in predict(command, &model) },
                        perform: { command, system in
                            guard case .enrich(let response) = command else { throw HarnessFault("\(command.trace) is no enrichment") }
                            return await system.enrich(response)
                        }),
            // The user's own steps while an enrichment awaits its response: each one job on the case's thread (the
            // main actor's part), drawn only beside an enrichment (alone each is the ordinary step above).
            .concurrent("userDelete", weight: 1, when: { m in m.spec.works.indices.contains { m.spec.isLive($0) } },
                        arguments: { args, model in
                            let ref = try args.ref("work", among: model.spec.works.count, where: model.spec.isLive)
                            let command = MapperCommand.deleteWork(ref, evict: args.bool("evict"))
                            if args.isReplaying { try args.require(applies(command, model)) }
                            return command
                        },
                        predict: { command, model in predict(command, &model) },
                        perform: { command, system in try performAsUser(command, system) }, joinsOnly: true),
            .concurrent("userSave", weight: 1, arguments: { _, _ in MapperCommand.save }, predict: { command, model in predict(command, &model) },
                        perform: { command, system in try performAsUser(command, system) }, joinsOnly: true),
        ]
    }

    private func mapCommand(_ response: SpecResponse, _ model: MapperState) -> MapperCommand {
        .map(response, result: model.spec.createdCount(mapping: response) > 0 ? Ref(model.spec.nextRef) : nil)
    }

    /// Whether a command read from a trace applies in `model`.
    func applies(_ command: MapperCommand, _ model: MapperState) -> Bool {
        switch command {
        case .map(let response, let result):
            guard ResponseGenerator.isWellFormed(response) else { return false }
            let expected = model.spec.createdCount(mapping: response) > 0 ? Ref(model.spec.nextRef) : nil
            return result == expected
        case .enrich(let response): return ResponseGenerator.isWellFormed(response)
        case .mapMalformed(let response, let missing):
            return ResponseGenerator.isWellFormed(response) && response.requiredPaths.contains(missing)
        case .deleteWork(let ref, _): return model.spec.isLive(ref.index)
        case .deleteElsewhere(let ref): return model.spec.isDeletableElsewhere(ref.index)
        case .save, .rollback, .clearCache, .newContext, .relaunch: return true
        }
    }

    // MARK: Specification

    /// The specification's step; a trap at any step but a relaunch is M11's (`Prediction.step`).
    func predict(_ command: MapperCommand, _ model: inout MapperState) -> Prediction<MapperObservation> {
        switch command {
        case .map(let response, _), .enrich(let response):
            if model.responses.count < 8, !model.responses.contains(response) { model.responses.append(response) }
            return model.spec.map(response)
        case .mapMalformed(_, let missing):
            // M13: decoding names the missing field's path; nothing is inserted, the model is unchanged.
            return .step(.rejected(path: missing, contextChanged: false), rule: MapperRules.malformedInsertsNothing)
        case .save:
            model.spec.save()
        case .rollback, .newContext:
            model.spec.discardPending()
        case .deleteWork(let ref, _):
            model.spec.delete(ref.index)
        case .deleteElsewhere(let ref):
            model.spec.deleteElsewhere(ref.index)
        case .clearCache:
            return .step(.done, rule: MapperRules.knownVolumeReused)
        case .relaunch:
            return model.spec.relaunch()
        }
        return .step(.done, rule: MapperRules.storeMatches)
    }

    /// A user's step run as a branch of a concurrent step: one job, without suspending, as the sequential step runs it.
    private func performAsUser(_ command: MapperCommand, _ system: MapperSystem) throws -> MapperObservation {
        var system = system
        return try perform(command, &system)
    }

    func perform(_ command: MapperCommand, _ system: inout MapperSystem) throws -> MapperObservation {
        switch command {
        case .map(let response, _): return system.map(response)
        case .mapMalformed(let response, let missing): return system.mapMalformed(response, missing: missing)
        case .enrich: throw HarnessFault("\(command.trace) awaits its response, as a concurrent step")
        case .save: return try system.save()
        case .rollback: return system.rollback()
        case .deleteWork(let ref, let evict): return system.deleteWork(ref.index, evict: evict)
        case .deleteElsewhere(let ref): return try system.deleteElsewhere(ref.index)
        case .clearCache: return system.clearCache()
        case .newContext: return system.newContext()
        case .relaunch: return try system.relaunch()
        }
    }

    public var invariants: [Invariant<MapperMachine>] { [Invariant(MapperRules.storeMatches, storeMatches)] }

    /// After a step that changed the store: the saved works, editions and authors are the specification's.
    func storeMatches(_ model: MapperState, _ system: MapperSystem) -> String? {
        guard system.storeChanged else { return nil }
        system.storeChanged = false
        let store = system.storeSnapshot()
        let want = (works: model.spec.storeWorks, editions: model.spec.storeEditionCount, authors: model.spec.savedAuthors)
        guard store.works != want.works || store.editions != want.editions || store.authors != want.authors else { return nil }
        return "saved store: expected works \(want.works), \(want.editions) editions, \(want.authors) authors; "
            + "found works \(store.works), \(store.editions) editions, \(store.authors) authors"
    }
}
