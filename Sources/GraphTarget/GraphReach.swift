import BooksSpec
import GraphFuzzEngine
import GraphSpec
import GraphStoreRules

/// A rule's failure-prone state, and whether a case reached it: shown the state before each step and the step's
/// command, in order.
package struct RareState: Sendable {
    package let name: String
    package let rule: String
    /// The case's memory (what earlier steps did), then whether this step reaches the state.
    let step: @Sendable (inout [Bool], GraphModel, GraphCommand) -> Bool

    /// The graph target's rare states, each read from the specification's state (`GraphStories`).
    package static let all: [RareState] = [
        RareState(name: "fetch by attribute after a pending change to a saved model", rule: GraphRules.fetchReadsStore) { _, model, command in
            guard case let .fetch(c, entity, attribute, value) = command, let change = model.pendingChange(entity: entity, attribute: attribute)
            else { return false }
            return change.context == c && (value == change.pending || value == change.saved)
        },
        RareState(name: "newest row deleted, relaunch, then a save of a new model", rule: GraphRules.numbersNeverReused) { memory, model, command in
            switch command {
            case .relaunch, .killedSave: memory[0] = memory[0] || model.newestRowDeleted
            case .save(let c): return memory[0] && model.objects.contains { $0.context == c && $0.inserted && !$0.deleted }
            default: break
            }
            return false
        },
        RareState(name: "save of a deleted model a deny rule holds back", rule: GraphRules.denyDelete) { _, model, command in
            guard case .save(let c) = command else { return false }
            return model.objects.indices.contains { o in
                model.objects[o].context == c && model.objects[o].deleted && model.entities[model.objects[o].entity].relationships.indices.contains { r in
                    model.entities[model.objects[o].entity].relationships[r].deleteRule == .deny && model.objects[o].links[r].contains { !model.objects[$0].deleted }
                }
            }
        },
        RareState(name: "killed save on SQLite", rule: GraphRules.atomicSave) { _, model, command in
            guard case .killedSave = command else { return false }
            return model.parameters.backend == .sqlite
        },
        RareState(name: "killed save with a pending delete of a saved row", rule: GraphRules.atomicSave) { _, model, command in
            guard case .killedSave(let c, _) = command else { return false }
            return model.deletesSavedRow(c)
        },
        RareState(name: "cleared to-one saved on SQLite", rule: GraphRules.savedSnapshot) { _, model, command in
            guard case .save(let c) = command else { return false }
            return model.parameters.backend == .sqlite && model.dropsLinks(c, toMany: false) && saves(model, command)
        },
        RareState(name: "shrunk to-many saved on SQLite", rule: GraphRules.savedSnapshot) { _, model, command in
            guard case .save(let c) = command else { return false }
            return model.parameters.backend == .sqlite && model.dropsLinks(c, toMany: true) && saves(model, command)
        },
        // A killed process leaves its journal: the saves committed since the store was opened are in it.
        RareState(name: "relaunch over a journal holding a save (SQLite)", rule: GraphRules.relaunchKeepsSaved) { memory, model, command in
            guard model.parameters.backend == .sqlite else { return false }
            switch command {
            case .save(let c): memory[1] = memory[1] || model.objects.contains { $0.context == c && $0.hasChanges }
            case .relaunch: memory[1] = false
            case .killedSave: defer { memory[1] = false }; return memory[1]
            default: break
            }
            return false
        },
    ]

    /// Whether the library's save `command` writes (is neither refused nor failed nor trapped).
    static func saves(_ model: GraphModel, _ command: GraphCommand) -> Bool {
        var after = model
        if case .saved = after.predict(command, save: { $0.librarySave($1) }).value { return true }
        return false
    }

    /// How many cases of each seed's run reach each state: the graph target's cases generated as a search draws
    /// them (`runs` per seed, `maxSteps` steps at most), against the specification alone.
    package static func measure(seeds: [UInt64], runs: Int, maxSteps: Int) -> [[Int]] {
        seeds.map { seed in
            let tally = ReachTally()
            let runner = MachineRunner(ReachMachine(tally: tally), maxSteps: maxSteps)
            for index in 0..<runs {
                tally.startCase()
                _ = runner.run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), RunOptions(makesSystem: false))
                tally.endCase()
            }
            return tally.cases
        }
    }
}

/// What one run reached: per state, the cases that reached it; for the case under way, its memory and what it reached.
final class ReachTally {
    private(set) var cases = Array(repeating: 0, count: RareState.all.count)
    private var memory = [false, false]
    private var reached = Array(repeating: false, count: RareState.all.count)

    func startCase() {
        memory = [false, false]
        reached = Array(repeating: false, count: RareState.all.count)
    }

    func see(_ model: GraphModel, _ command: GraphCommand) {
        for (s, state) in RareState.all.enumerated() where state.step(&memory, model, command) { reached[s] = true }
    }

    func endCase() {
        for s in reached.indices where reached[s] { cases[s] += 1 }
    }
}

/// The graph target's actions and configuration, its steps predicted against the specification alone and shown to
/// a tally (the system is never made).
struct ReachMachine: StateMachine {
    typealias Config = GraphConfig
    typealias Model = GraphModel
    typealias System = GraphSystem

    let tally: ReachTally
    private let graph = GraphMachine()

    func makeConfig(_ args: inout Arguments) -> GraphConfig { graph.makeConfig(&args) }
    var configurationStandsForSteps: Bool { graph.configurationStandsForSteps }
    func makeModel(_ config: GraphConfig) -> GraphModel { graph.makeModel(config) }
    func makeSystem(_ config: GraphConfig) throws -> GraphSystem { throw SpecificationOnly() }

    var actions: [Action<ReachMachine>] {
        let tally = tally
        return GraphMachine.actions(store: { _, _ in throw SpecificationOnly() }, books: { _, _ in throw SpecificationOnly() },
                                    watch: { tally.see($0, $1) })
    }

    /// The reach measurement runs no system.
    struct SpecificationOnly: Error {}
}
