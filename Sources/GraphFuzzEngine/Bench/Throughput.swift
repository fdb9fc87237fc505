/// Steps per second of one target, measured three ways on the same generated cases.
public struct Throughput: Sendable, Equatable {
    /// The specification alone: `makeModel` + `predict` over pre-generated commands.
    public var specStepsPerSecond: Double
    /// The system alone: `makeSystem` + `perform` over the same commands.
    public var systemStepsPerSecond: Double
    /// The full differential run: generation, both sides, comparison and invariants.
    public var differentialStepsPerSecond: Double
    public var steps: Int

    @inlinable
    public init(specStepsPerSecond: Double, systemStepsPerSecond: Double, differentialStepsPerSecond: Double, steps: Int) {
        self.specStepsPerSecond = specStepsPerSecond
        self.systemStepsPerSecond = systemStepsPerSecond
        self.differentialStepsPerSecond = differentialStepsPerSecond
        self.steps = steps
    }

    /// The harness overhead: time per differential step over time per system-alone step.
    public var overhead: Double {
        differentialStepsPerSecond > 0 ? systemStepsPerSecond / differentialStepsPerSecond : 0
    }
}

extension MachineRunner {
    /// Measures throughput over `cases` cases generated from `seed` (skipping configurations the
    /// machine does not benchmark), repeating each way until `minimumSeconds` have passed so short
    /// runs are not dominated by timer noise.
    @inlinable
    public func measureThroughput(seed: UInt64, cases: Int, minimumSeconds: Double) -> Throughput {
        var generated: [(M.Config, [PlannedStep<M>])] = []
        var seeds: [UInt64] = []
        var totalSteps = 0
        var index = 0
        while generated.count < cases && index < cases * 10 {
            let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
            index += 1
            let draw = Draw(seed: caseSeed)
            let config = machine.makeConfig(draw)
            guard Self.isBenchmarked(machine, config) else { continue }
            let result = run(Draw(seed: caseSeed))
            generated.append((result.config, result.commands))
            seeds.append(caseSeed)
            totalSteps += result.commands.count
        }
        let clock = ContinuousClock()
        func rate(_ body: () -> Int) -> Double {
            var steps = 0
            let start = clock.now
            repeat { steps += body() } while (clock.now - start).seconds < minimumSeconds
            return Double(steps) / (clock.now - start).seconds
        }
        let spec = rate {
            var steps = 0
            for (config, commands) in generated {
                var model = machine.makeModel(config)
                for step in commands { blackHole(actions[step.action].predict(step.command, &model)) }
                steps += commands.count
            }
            return steps
        }
        let system = rate {
            var steps = 0
            for (config, commands) in generated {
                guard var system = try? machine.makeSystem(config) else { continue }
                for step in commands { blackHole(try? actions[step.action].perform(step.command, &system)) }
                machine.tearDown(&system)
                steps += commands.count
            }
            return steps
        }
        let differential = rate {
            var steps = 0
            for caseSeed in seeds {
                steps += run(Draw(seed: caseSeed)).commands.count
            }
            return steps
        }
        return Throughput(specStepsPerSecond: spec, systemStepsPerSecond: system,
                          differentialStepsPerSecond: differential, steps: totalSteps)
    }
}

extension MachineRunner {
    /// Whether `machine` benchmarks `config` (every configuration unless it is `Benchmarkable`).
    @usableFromInline
    static func isBenchmarked(_ machine: M, _ config: M.Config) -> Bool {
        func check<B: Benchmarkable>(_ machine: B) -> Bool { machine.isBenchmarked(config as! B.Config) }
        if let benchmarkable = machine as? any Benchmarkable { return check(benchmarkable) }
        return true
    }
}

/// Keeps the optimiser from deleting work whose result is unused.
@inline(never) @usableFromInline
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
