import BooksSpec
import Foundation
import GraphFuzzEngine
import GraphSpec
import GraphTarget
import Testing

/// Whether the graph target's default budget reaches the failure-prone states of its rules: the crash
/// class (G15 with a stale model, G17) and the schema's validation limits (G10). Each case is classified by
/// stepping a fresh specification beside the recorded steps, so the measure knows nothing of the generator.
@Suite("graph search depth")
struct GraphSearchDepthTests {
    /// What one case exercised.
    struct Exercised: OptionSet {
        let rawValue: Int
        /// G15: `registeredModel(for:)` in a context whose model of the row was invalidated by a foreign save.
        static let staleRegistered = Exercised(rawValue: 1 << 0)
        /// G17: a step trapped on a model whose row another context's save deleted.
        static let foreignDeleteTrap = Exercised(rawValue: 1 << 1)
        /// G10: a save validated a to-many holding exactly its maxCount.
        static let atMaxCount = Exercised(rawValue: 1 << 2)
        /// G10: a save failed with 1590 (a to-many beyond its maxCount).
        static let overMaxCount = Exercised(rawValue: 1 << 3)
        /// G10: a save validated an attribute exactly at a bound of its range or length.
        static let atAttributeBound = Exercised(rawValue: 1 << 4)
        /// G10: a save failed with 1610/1620/1660/1670 (an attribute beyond its range or length).
        static let beyondAttributeBound = Exercised(rawValue: 1 << 5)

        static let all: [(Exercised, String)] = [
            (.staleRegistered, "G15 stale registered model"), (.foreignDeleteTrap, "G17 foreign delete touched"),
            (.atMaxCount, "G10 to-many at maxCount"), (.overMaxCount, "G10 to-many beyond maxCount (1590)"),
            (.atAttributeBound, "G10 attribute at a bound"), (.beyondAttributeBound, "G10 attribute beyond a bound"),
        ]
    }

    /// The graph machine's steps with each command the system ran logged.
    struct LoggedGraph: StateMachine {
        enum Command { case store(GraphCommand), books(BooksCommand) }
        final class Log { var commands: [Command] = [] }
        let log = Log()
        let machine = GraphMachine()

        func makeConfig(_ args: inout Arguments) -> GraphConfig { machine.makeConfig(&args) }
        func makeModel(_ config: GraphConfig) -> GraphModel { machine.makeModel(config) }
        func makeSystem(_ config: GraphConfig) throws -> GraphSystem {
            log.commands = []
            return try machine.makeSystem(config)
        }
        func tearDown(_ system: inout GraphSystem) { machine.tearDown(&system) }
        var actions: [Action<LoggedGraph>] {
            GraphMachine.actions(store: { [log] (command: GraphCommand, system: inout GraphSystem) in
                log.commands.append(.store(command))
                return try system.run(command)
            }, books: { [log] (command: BooksCommand, system: inout GraphSystem) in
                log.commands.append(.books(command))
                return system.run(command)
            })
        }
    }

    /// The states case `index` of `seed` exercised (the search's own case draw).
    static func exercised(seed: UInt64, index: Int) -> Exercised {
        let logged = LoggedGraph()
        let run = MachineRunner(logged, maxSteps: Target.graph.defaultSteps).run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)))
        var model = logged.machine.makeModel(run.config)
        var found: Exercised = []
        for step in logged.log.commands {
            guard case .store(let command) = step else {
                if case .books(let command) = step { _ = model.predict(command) }
                continue
            }
            if case let .lookup(_, h, c, .registered) = command, let id = model.held[h].id, id.permanent,
               model.objects.contains(where: { $0.context == c && $0.id == id && $0.lifecycle == .invalidated }) {
                found.insert(.staleRegistered)
            }
            if case let .save(c) = command { found.formUnion(boundsValidated(model, c)) }
            let prediction = model.predict(command) { $0.librarySave($1) }
            if prediction.value.isTrap && prediction.rule == GraphRules.foreignDeleteInvalidates { found.insert(.foreignDeleteTrap) }
            if case let .saveFailed(_, issues, _) = prediction.value {
                if issues.contains(where: { $0.code == 1590 }) { found.insert(.overMaxCount) }
                if issues.contains(where: { [1610, 1620, 1660, 1670].contains($0.code) }) { found.insert(.beyondAttributeBound) }
            }
        }
        return found
    }

    /// The bounds a save of context `c` validates: pending models holding a to-many at its maxCount, or an
    /// attribute at a bound of its range or length.
    static func boundsValidated(_ model: GraphModel, _ c: Int) -> Exercised {
        var found: Exercised = []
        for object in model.objects where object.context == c && (object.inserted || object.changed) && !object.deleted {
            let entity = model.entities[object.entity]
            for (r, relationship) in entity.relationships.enumerated() where relationship.maxCount == object.links[r].count {
                found.insert(.atMaxCount)
            }
            for (a, attribute) in entity.attributes.enumerated() {
                let size: Int?, bounds: ClosedRange<Int>?
                switch object.values[a] {
                case .int(let n): (size, bounds) = (n, attribute.range)
                case .string(let text): (size, bounds) = (text.count, attribute.length)
                default: (size, bounds) = (nil, nil)
                }
                if let size, let bounds, size == bounds.lowerBound || size == bounds.upperBound { found.insert(.atAttributeBound) }
            }
        }
        return found
    }

    /// Per state: the seeds (of `seeds`) whose `runs` cases exercised it, and the cases that did.
    static func measure(seeds: ClosedRange<UInt64>, runs: Int) -> [(name: String, seeds: Int, cases: Int)] {
        var seedCounts = Array(repeating: 0, count: Exercised.all.count)
        var caseCounts = seedCounts
        for seed in seeds {
            var union: Exercised = []
            for index in 0..<runs {
                let found = exercised(seed: seed, index: index)
                union.formUnion(found)
                for (k, state) in Exercised.all.enumerated() where found.contains(state.0) { caseCounts[k] += 1 }
            }
            for (k, state) in Exercised.all.enumerated() where union.contains(state.0) { seedCounts[k] += 1 }
        }
        return Exercised.all.enumerated().map { ($1.1, seedCounts[$0], caseCounts[$0]) }
    }

    @Test("the default budget reaches the crash class (G15 stale, G17) in at least 1% of cases")
    func crashClassReached() {
        let runs = 2000
        let table = Self.measure(seeds: 1...1, runs: runs)
        for row in table { print("depth (seed 1): \(row.name): \(row.cases)/\(runs) cases") }
        for row in table.prefix(2) {
            #expect(row.cases * 100 >= runs, "\(row.name): \(row.cases) of \(runs) cases")
        }
        for row in table.dropFirst(2) {
            #expect(row.cases > 0, "\(row.name): never in \(runs) cases")
        }
    }

    /// The depth table (docs/performance.md names it): `GRAPHFUZZ_DEPTH_TABLE=1 swift test --filter GraphSearchDepthTests`
    /// prints, for seeds 1–20 at the default budget, how many seeds and cases exercised each state, and how many
    /// seeds' searches fail.
    @Test("depth table (printed on request)", .enabled(if: ProcessInfo.processInfo.environment["GRAPHFUZZ_DEPTH_TABLE"] != nil))
    func depthTable() throws {
        let runs = 2000
        let table = ProcessInfo.processInfo.environment["GRAPHFUZZ_DEPTH_TABLE"] == "faults" ? [] : Self.measure(seeds: 1...20, runs: runs)
        for row in table {
            print("depth: \(row.name): \(row.seeds)/20 seeds, \(row.cases)/\(20 * runs) cases")
        }
        #expect(table.allSatisfy { $0.seeds > 0 }, "a state no seed reached: \(table.filter { $0.seeds == 0 }.map(\.name))")
        guard ProcessInfo.processInfo.environment["GRAPHFUZZ_DEPTH_TABLE"] != "rules" else { return }
        var failing: [String] = []
        for seed in UInt64(1)...20 {
            let result = try Campaign.firstFailure(.graph, options: SearchOptions(seed: seed, runs: runs))
            if let failure = result.failures.first { failing.append("\(seed):\(failure.failure.rule)@\(failure.caseIndex)") }
        }
        print("depth: searches failing: \(failing.count)/20 \(failing)")
    }
}
