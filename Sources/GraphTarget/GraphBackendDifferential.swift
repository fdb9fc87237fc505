import GraphFuzzEngine
import GraphSpec

/// Differential testing of the store's two backends (issue 17): the graph target's generated cases run on rows in
/// memory and on an SQLite file, and every step's observation and the saved rows after it must be the same. The
/// specification is not consulted: this compares production with production.
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
        let machine = GraphMachine()
        let runner = MachineRunner(machine, maxSteps: maxSteps)
        var report = Report()
        for index in 0..<cases {
            let (config, planned) = runner.generate(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)))
            report.cases += 1
            var memoryConfig = config, sqliteConfig = config
            memoryConfig.backend = .memory
            sqliteConfig.backend = .sqlite
            do {
                var memory = try GraphSystem(config: memoryConfig, mutant: nil, stores: machine.stores)
                var sqlite = try GraphSystem(config: sqliteConfig, mutant: nil, stores: machine.stores)
                defer {
                    machine.tearDown(&memory)
                    machine.tearDown(&sqlite)
                }
                for (number, step) in planned.enumerated() {
                    report.steps += 1
                    let a = try memory.run(step.command), b = try sqlite.run(step.command)
                    if a != b {
                        report.disagreement = "seed \(seed) case \(index) step \(number + 1) \(step.trace): memory \(a), sqlite \(b)"
                        return report
                    }
                    let rowsA = memory.canonicalRows(), rowsB = sqlite.canonicalRows()
                    if rowsA != rowsB {
                        report.disagreement = "seed \(seed) case \(index) step \(number + 1) \(step.trace): saved rows differ: memory \(rowsA), sqlite \(rowsB)"
                        return report
                    }
                    if a.isTrap { break }
                }
            } catch let fault as HarnessFault {
                report.disagreement = "seed \(seed) case \(index): harness fault (not a disagreement of the backends): \(fault)"
                return report
            } catch {
                report.disagreement = "seed \(seed) case \(index): the store could not be opened: \(error)"
                return report
            }
        }
        return report
    }
}

/// Throughput benchmarks measure the in-memory backend; on-disk cases are bound by SQLite's durable commits.
extension GraphMachine: Benchmarkable {
    public func isBenchmarked(_ config: GraphConfig) -> Bool { config.backend == .memory }
}
