import GraphFuzzEngine
import Testing

/// A counter with a precondition that fails in some states, a rule decided beside another, an
/// invariant that decides its rule only in some states and a planted fault past 30: every count a
/// chunk adds up is exercised.
private struct TallyMachine: StateMachine, Sendable {
    typealias Observation = Int
    struct Model: Sendable { var value = 0 }
    struct System: Sendable { var value = 0 }

    func makeModel(_ config: NoConfig) -> Model { Model() }
    func makeSystem(_ config: NoConfig) -> System { System() }

    var actions: [Action<Self>] {
        [Action("add", weight: 3, arguments: { args, _ in args.int("n", in: 1...9) },
                predict: { n, model in
                    let carries = model.value % 10 + n >= 10
                    model.value += n
                    return Prediction(model.value, rule: "T1", alsoDecided: carries ? ["T2"] : [])
                },
                perform: { n, system in
                    system.value += n
                    return system.value > 30 ? system.value + 1 : system.value
                }),
         Action("halve", when: { $0.value > 4 },
                predict: { model in
                    model.value /= 2
                    return Prediction(model.value, rule: "T3")
                },
                perform: { system in
                    system.value /= 2
                    return system.value
                })]
    }

    var invariants: [Invariant<Self>] {
        [Invariant("T4", decidedBy: { $0.value >= 15 ? "T4" : nil }) { _, _ in nil }]
    }
}

@Suite("chunk runs")
struct ChunkRunTests {
    /// What the search loop got before chunks ran without records: each case run alone, recorded.
    private func oneByOne(_ machine: AnyMachine, _ chunk: CaseChunk, seed: UInt64) -> ChunkReport {
        var report = ChunkReport()
        for index in chunk.indices {
            let run = machine.runCovered(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), 12)
            report.cases += 1
            report.steps += run.steps
            report.coverage.merge(run.coverage)
            if case .rejected = run.outcome { report.rejected += 1 }
            if case .fail(let failure) = run.outcome { report.failures.append(CaseFailure(index: index, failure: failure)) }
        }
        return report
    }

    @Test("a chunk run without records counts, fails and covers exactly what its cases run one by one do")
    func sameAsOneByOne() {
        let machine = AnyMachine(TallyMachine())
        for chunk in [CaseChunk(start: 0, stride: 1, count: 200), CaseChunk(start: 3, stride: 4, count: 50)] {
            let together = machine.runChunk(chunk, 7, 12, false)
            let alone = oneByOne(machine, chunk, seed: 7)
            #expect(together == alone)
            #expect(!together.failures.isEmpty && together.failures.count < chunk.count)
            #expect(together.coverage.actions.map(\.failed).contains { $0 > 0 })
            #expect((together.coverage.predictions["T2"] ?? 0) > 0)
            #expect((together.coverage.invariants["T4"] ?? 0) > 0)
        }
    }

    @Test("a chunk stops after its first failing case when asked")
    func stopsAtFirstFailure() {
        let machine = AnyMachine(TallyMachine())
        let chunk = CaseChunk(start: 0, stride: 1, count: 200)
        let report = machine.runChunk(chunk, 7, 12, true)
        let first = oneByOne(machine, chunk, seed: 7).failures[0]
        #expect(report.failures == [first])
        #expect(report.cases == first.index + 1)
        #expect(report == oneByOne(machine, CaseChunk(start: 0, stride: 1, count: first.index + 1), seed: 7))
    }
}
