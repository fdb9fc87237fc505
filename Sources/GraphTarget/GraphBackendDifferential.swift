import BooksSpec
import GraphFuzzEngine
import GraphSpec
import GraphStore
import GraphStoreRules

/// Differential testing of the store's two backends: the graph target's generated cases run on rows in memory
/// and on an SQLite file, and every step's observation and the saved rows after it must be the same. The
/// specification generates the steps and, as in the graph target, judges the in-memory store's observations; a
/// disagreement of the backends is reported first.
public enum GraphBackendDifferential {
    /// What a differential run did, and the first disagreement (nil when the backends agreed on every step).
    public struct Report: Sendable {
        public var cases = 0
        public var steps = 0
        public var disagreement: String?
    }

    /// Runs `cases` cases of seed `seed` (each generated as the graph target generates it, at most `maxSteps`
    /// steps) on both backends; stops at the first disagreement.
    public static func run(seed: UInt64, cases: Int, maxSteps: Int = 30) -> Report {
        let runner = MachineRunner(BackendPair(), maxSteps: maxSteps)
        var report = Report()
        for index in 0..<cases {
            let run = runner.run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)))
            report.cases += 1
            report.steps += run.steps
            switch run.outcome {
            case .pass, .rejected: continue
            case .fail(let failure):
                let step = failure.step.map { " step \($0 + 1)" } ?? ""
                report.disagreement = "seed \(seed) case \(index)\(step) \(failure.message)"
            case .harnessFault(let fault):
                report.disagreement = "seed \(seed) case \(index): harness fault (not a disagreement of the backends): \(fault)"
            }
            return report
        }
        return report
    }

    /// The graph machine's steps on two stores, one per backend; a step whose observations or saved rows differ
    /// throws `Disagreement`.
    struct BackendPair: StateMachine {
        /// Where the SQLite store files go (the system's scratch location), shared by the cases.
        let stores = ScratchStores()

        struct System {
            var memory: GraphSystem
            var sqlite: GraphSystem
        }

        struct Disagreement: Error, CustomStringConvertible {
            var description: String
        }

        func makeConfig(_ args: inout Arguments) -> GraphConfig { GraphMachine().makeConfig(&args) }
        var configurationStandsForSteps: Bool { GraphMachine().configurationStandsForSteps }
        /// The specification of the in-memory store: the step's observation is the memory backend's.
        func makeModel(_ config: GraphConfig) -> GraphModel {
            var memory = config
            memory.parameters.backend = .memory
            return GraphMachine().makeModel(memory)
        }

        func makeSystem(_ config: GraphConfig) throws -> System {
            var memoryConfig = config, sqliteConfig = config
            memoryConfig.parameters.backend = .memory
            sqliteConfig.parameters.backend = .sqlite
            do {
                return System(memory: try GraphSystem(config: memoryConfig, stores: stores),
                              sqlite: try GraphSystem(config: sqliteConfig, stores: stores))
            } catch let fault as HarnessFault {
                throw fault
            } catch {
                throw Disagreement(description: "the store could not be opened: \(error)")
            }
        }

        func tearDown(_ system: inout System) {
            GraphMachine().tearDown(&system.memory)
            GraphMachine().tearDown(&system.sqlite)
        }

        var actions: [Action<BackendPair>] {
            GraphMachine.actions(store: { command, pair in
                // Only the SQLite store makes damaged copies at a relaunch (G26): the rest of the state must agree.
                let a = try pair.memory.run(command), b = try pair.sqlite.run(command)
                let withoutCopies = b.savedState.map { state in b.with(SavedState(rows: state.rows, reusedNumbers: state.reusedNumbers)) } ?? b
                if a != withoutCopies { throw Disagreement(description: "memory \(a), sqlite \(b)") }
                return try Self.rowsAgree(a, &pair)
            }, books: { command, pair in
                let a = pair.memory.run(command), b = pair.sqlite.run(command)
                if a != b { throw Disagreement(description: "memory \(a), sqlite \(b)") }
                return a
            })
        }

        /// The saved rows of both stores after a step that observed none: they must agree too.
        static func rowsAgree(_ observation: GraphObservation, _ pair: inout System) throws -> GraphObservation {
            guard observation.savedState == nil else { return observation }
            let rowsA = pair.memory.store.canonicalRows(), rowsB = pair.sqlite.store.canonicalRows()
            if rowsA != rowsB { throw Disagreement(description: "saved rows differ: memory \(rowsA), sqlite \(rowsB)") }
            return observation
        }
    }
}

/// Throughput benchmarks measure the in-memory backend; on-disk cases are bound by SQLite's durable commits.
extension GraphMachine: Benchmarkable {
    package func isBenchmarked(_ config: GraphConfig) -> Bool { config.parameters.backend == .memory }
}
