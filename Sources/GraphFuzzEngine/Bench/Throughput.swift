/// Steps per second of one target, measured on the same generated cases: the specification alone (each case
/// generated and predicted against the model, the system never made) and the full differential run
/// (generation, both sides, comparison and invariants); the system's share is the difference.
package struct Throughput: Sendable, Equatable {
    /// The specification alone: cases generated and predicted against the model.
    package var specStepsPerSecond: Double
    /// The system and the checks: the time of a differential step less that of a specification step (0 when that
    /// difference is too small to measure).
    package var systemStepsPerSecond: Double
    /// The full differential run: generation, both sides, comparison and invariants.
    package var differentialStepsPerSecond: Double
    package var steps: Int

    package init(specStepsPerSecond: Double, systemStepsPerSecond: Double, differentialStepsPerSecond: Double, steps: Int) {
        self.specStepsPerSecond = specStepsPerSecond
        self.systemStepsPerSecond = systemStepsPerSecond
        self.differentialStepsPerSecond = differentialStepsPerSecond
        self.steps = steps
    }

    /// The harness overhead: time per differential step over time per system step.
    package var overhead: Double {
        differentialStepsPerSecond > 0 ? systemStepsPerSecond / differentialStepsPerSecond : 0
    }
}

/// What the configurations left out of `Throughput` (on disk: I/O-bound by design) cost a search.
package struct OnDiskThroughput: Sendable, Equatable {
    /// The share of a search's generated cases whose configuration runs on disk.
    package var caseShare: Double
    /// Differential steps per second of those cases alone (generation, both sides, comparison).
    package var stepsPerSecond: Double
    /// On-disk cases measured.
    package var cases: Int
    package var steps: Int

    package init(caseShare: Double, stepsPerSecond: Double, cases: Int, steps: Int) {
        self.caseShare = caseShare
        self.stepsPerSecond = stepsPerSecond
        self.cases = cases
        self.steps = steps
    }

    /// The share of a search's time its on-disk cases take, given the differential steps per second of the
    /// other cases (and taking a case's steps as the same on both).
    package func timeShare(inMemoryStepsPerSecond memory: Double) -> Double {
        guard stepsPerSecond > 0, memory > 0 else { return 0 }
        let disk = caseShare / stepsPerSecond
        return disk / (disk + (1 - caseShare) / memory)
    }
}

extension AnyMachine {
    /// A case generated and predicted against the model alone, nothing recorded.
    static var modelOnly: RunOptions { RunOptions(makesSystem: false) }

    /// Measures throughput over `cases` cases generated from `seed` (skipping configurations the machine does
    /// not benchmark), repeating each way until `minimumSeconds` have passed so short runs are not dominated
    /// by timer noise.
    package func measureThroughput(seed: UInt64, cases: Int, maxSteps: Int, minimumSeconds: Double) -> Throughput {
        var seeds: [UInt64] = []
        var totalSteps = 0
        var index = 0
        while seeds.count < cases && index < cases * 10 {
            let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
            index += 1
            guard run(Draw(seed: caseSeed), maxSteps, Self.modelOnly).benchmarked else { continue }
            seeds.append(caseSeed)
            totalSteps += run(Draw(seed: caseSeed), maxSteps).steps
        }
        let clock = ContinuousClock()
        func seconds(_ body: () -> Int) -> (steps: Int, seconds: Double) {
            var steps = 0
            let start = clock.now
            repeat { steps += body() } while (clock.now - start).seconds < minimumSeconds
            return (steps, (clock.now - start).seconds)
        }
        let spec = seconds { seeds.reduce(0) { $0 + run(Draw(seed: $1), maxSteps, Self.modelOnly).steps } }
        let differential = seconds { seeds.reduce(0) { $0 + run(Draw(seed: $1), maxSteps).steps } }
        let specRate = Double(spec.steps) / spec.seconds, differentialRate = Double(differential.steps) / differential.seconds
        let systemTime = 1 / differentialRate - 1 / specRate
        return Throughput(specStepsPerSecond: specRate, systemStepsPerSecond: systemTime > 0 ? 1 / systemTime : 0,
                          differentialStepsPerSecond: differentialRate, steps: totalSteps)
    }

    /// Measures the configurations `measureThroughput` leaves out (nil when it leaves none out): the share of
    /// the first `sample` cases of `seed` that have one, and the differential steps per second of up to
    /// `cases` of them, repeated until `minimumSeconds`.
    package func measureOnDisk(seed: UInt64, cases: Int, maxSteps: Int, minimumSeconds: Double, sample: Int = 1000) -> OnDiskThroughput? {
        var excluded: [UInt64] = []
        var excludedInSample = 0
        var index = 0
        while index < sample || (excluded.count < cases && index < cases * 100) {
            let caseSeed = SplitMix64.caseSeed(run: seed, case: index)
            // One step is enough to know the configuration.
            let isExcluded = !run(Draw(seed: caseSeed), 1, Self.modelOnly).benchmarked
            if isExcluded && index < sample { excludedInSample += 1 }
            if isExcluded && excluded.count < cases { excluded.append(caseSeed) }
            index += 1
        }
        guard !excluded.isEmpty else { return nil }
        let clock = ContinuousClock()
        var steps = 0
        let start = clock.now
        repeat {
            for caseSeed in excluded { steps += run(Draw(seed: caseSeed), maxSteps).steps }
        } while (clock.now - start).seconds < minimumSeconds
        let seconds = (clock.now - start).seconds
        return OnDiskThroughput(caseShare: Double(excludedInSample) / Double(sample), stepsPerSecond: Double(steps) / seconds,
                                cases: excluded.count, steps: steps)
    }
}
