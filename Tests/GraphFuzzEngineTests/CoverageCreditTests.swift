import GraphFuzzEngine
import Testing

/// A counter whose `add` decides two rules (the sum, and the carry past 9) and whose invariant
/// decides a third only in some states: coverage credits each rule where it decided something.
private struct CarryMachine: StateMachine, Sendable {
    struct Model: Sendable { var value = 0 }
    struct System: Sendable { var value = 0 }

    func makeModel(_ config: NoConfig) -> Model { Model() }
    func makeSystem(_ config: NoConfig) -> System { System() }

    var actions: [Action<Self>] {
        [Action("add", arguments: { args, _ in args.int("n", in: 1...9) },
                predict: { n, model in
                    let carries = model.value % 10 + n >= 10
                    model.value += n
                    let sum = Prediction(model.value, rule: "K1")
                    return carries ? sum.part("carry", rule: "K2") : sum
                },
                perform: { n, system in
                    system.value += n
                    return system.value
                })]
    }

    var invariants: [Invariant<Self>] {
        [Invariant("K3", when: { $0.value >= 20 }) { _, _ in nil },
         Invariant("K4") { _, _ in nil }]
    }
}

@Suite("coverage credit")
struct CoverageCreditTests {
    @Test("a prediction's part rules and an invariant's state-dependent rule are counted")
    func credits() {
        let machine = AnyMachine(CarryMachine())
        var coverage = Coverage()
        var steps = 0
        for seed in UInt64(1)...50 {
            let run = machine.run(Draw(seed: seed), 20, RunOptions(covers: true))
            coverage.merge(run.coverage)
            steps += run.steps
        }
        #expect(coverage.predictions["K1"] == steps)
        let carries = coverage.predictions["K2"] ?? 0
        #expect(carries > 0 && carries < steps)
        // K4 has no `when`: every check counts. K3 counts only the checks made at 20 or more.
        #expect(coverage.invariants["K4"] == steps)
        let late = coverage.invariants["K3"] ?? 0
        #expect(late > 0 && late < steps)
    }
}
