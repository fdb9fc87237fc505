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

/// What the configurations left out of `Throughput` (on disk: I/O-bound by design) cost a search.
public struct OnDiskThroughput: Sendable, Equatable {
    /// The share of a search's generated cases whose configuration runs on disk.
    public var caseShare: Double
    /// Differential steps per second of those cases alone (generation, both sides, comparison).
    public var stepsPerSecond: Double
    /// On-disk cases measured.
    public var cases: Int
    public var steps: Int

    @inlinable
    public init(caseShare: Double, stepsPerSecond: Double, cases: Int, steps: Int) {
        self.caseShare = caseShare
        self.stepsPerSecond = stepsPerSecond
        self.cases = cases
        self.steps = steps
    }

    /// The share of a search's time its on-disk cases take, given the differential steps per
    /// second of the other cases (and taking a case's steps as the same on both).
    public func timeShare(inMemoryStepsPerSecond memory: Double) -> Double {
        guard stepsPerSecond > 0, memory > 0 else { return 0 }
        let disk = caseShare / stepsPerSecond
        return disk / (disk + (1 - caseShare) / memory)
    }
}

extension MachineRunner {
    /// Measures the configurations the machine leaves out of `measureThroughput` (nil when it
    /// leaves none out): the share of the first `sample` cases of `seed` that have one, and the
    /// differential steps per second of up to `cases` of them, repeated until `minimumSeconds`.
    @inlinable
    public func measureOnDisk(seed: UInt64, cases: Int, minimumSeconds: Double, sample: Int = 1000) -> OnDiskThroughput? {
        guard machine is any Benchmarkable else { return nil }
        var excluded: [UInt64] = []
        var excludedInSample = 0
        var index = 0
        while index < sample || (excluded.count < cases && index < cases * 100) {
            let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
            let isExcluded = !Self.isBenchmarked(machine, machine.makeConfig(Draw(seed: caseSeed)))
            if isExcluded && index < sample { excludedInSample += 1 }
            if isExcluded && excluded.count < cases { excluded.append(caseSeed) }
            index += 1
        }
        guard !excluded.isEmpty else { return nil }
        let clock = ContinuousClock()
        var steps = 0
        let start = clock.now
        repeat {
            for caseSeed in excluded { steps += run(Draw(seed: caseSeed)).commands.count }
        } while (clock.now - start).seconds < minimumSeconds
        let seconds = (clock.now - start).seconds
        return OnDiskThroughput(caseShare: Double(excludedInSample) / Double(sample), stepsPerSecond: Double(steps) / seconds,
                                cases: excluded.count, steps: steps)
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
