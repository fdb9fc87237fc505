import GraphFuzzEngine
import Testing

/// A counter with a precondition that fails in some states, a rule decided beside another, an
/// invariant that decides its rule only in some states and a planted fault past 30: every count a
/// chunk adds up is exercised.
private struct TallyMachine: StateMachine, Sendable {
    struct Model: Sendable { var value = 0 }
    struct System: Sendable { var value = 0 }

    func makeModel(_ config: NoConfig) -> Model { Model() }
    func makeSystem(_ config: NoConfig) -> System { System() }

    var actions: [Action<Self>] {
        [Action("add", weight: 3, arguments: { args, _ in args.int("n", in: 1...9) },
                predict: { n, model in
                    let carries = model.value % 10 + n >= 10
                    model.value += n
                    let sum = Prediction(model.value, rule: "T1")
                    return carries ? sum.part("carry", rule: "T2") : sum
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
        [Invariant("T4", when: { $0.value >= 15 }) { _, _ in nil }]
    }
}

/// Coded commands beside drawn ones, references, and a system that throws: a chunk's steps (one call of
/// each action's typed step) must create the same references, render the same traces in failures and
/// fail the same way as the planned steps of a recorded run. `split` is coded and creates an account,
/// `move` is coded and finds no command without two accounts; `open` draws its own reference.
private struct LedgerMachine: StateMachine, Sendable {
    enum Command: TraceCodable, Sendable {
        case open(Ref), move(from: Ref, to: Ref, amount: Int), split(from: Ref, new: Ref)
        var trace: TraceStep {
            switch self {
            case .open(let ref): TraceStep("open", result: ref)
            case .move(let from, let to, let amount): TraceStep("move", [.init("from", .ref(from)), .init("to", .ref(to)), .init("amount", .int(amount))])
            case .split(let from, let new): TraceStep("split", result: new, [.init("from", .ref(from))])
            }
        }
        init(trace: TraceStep) throws(TraceError) {
            switch trace.name {
            case "move": self = .move(from: try trace.ref("from"), to: try trace.ref("to"), amount: try trace.int("amount", in: 0...9))
            case "split": self = .split(from: try trace.ref("from"), new: trace.result ?? Ref(0))
            default: self = .open(trace.result ?? Ref(0))
            }
        }
    }
    struct Broke: Error {}
    struct Model: Sendable { var balances = Bundle<Int>() }
    struct System: Sendable { var balances = Bundle<Int>() }

    func makeModel(_ config: NoConfig) -> Model { Model() }
    func makeSystem(_ config: NoConfig) -> System { System() }

    var actions: [Action<Self>] {
        [Action("open", arguments: { args, _ in Command.open(args.result()) },
                predict: { command, model in
                    if case .open(let ref) = command { model.balances.add(ref, 10) }
                    return Prediction(10, rule: "L1")
                },
                perform: { command, system in
                    if case .open(let ref) = command { system.balances.add(ref, 10) }
                    return 10
                }),
         Action("move", weight: 3, arguments: { args, model in
                    try args.coded { draw -> Command? in
                        guard model.balances.count > 1 else { return nil }
                        let last = UInt64(model.balances.count - 1)
                        return .move(from: model.balances.refs[Int(draw.choose(upTo: last))], to: model.balances.refs[Int(draw.choose(upTo: last))],
                                     amount: Int(draw.choose(upTo: 9)))
                    }
                },
                predict: { command, model in
                    guard case .move(let from, let to, let amount) = command else { return Prediction(0, rule: "L2") }
                    model.balances[from]! -= amount
                    model.balances[to]! += amount
                    return Prediction(model.balances[to]!, rule: "L2")
                },
                perform: { command, system in
                    guard case .move(let from, let to, let amount) = command else { return 0 }
                    if amount == 9 && from.index == 2 { throw Broke() }
                    system.balances[from]! -= amount
                    system.balances[to]! += amount + (to.index == 3 ? 1 : 0)
                    return system.balances[to]!
                }),
         Action("split", when: { !$0.balances.isEmpty }, arguments: { args, model in
                    try args.coded { draw -> Command? in
                        .split(from: model.balances.refs[Int(draw.choose(upTo: UInt64(model.balances.count - 1)))], new: Ref(model.balances.refs.last!.index + 1))
                    }
                },
                predict: { command, model in
                    guard case .split(let from, let new) = command else { return Prediction(0, rule: "L3") }
                    let half = model.balances[from]! / 2
                    model.balances[from]! -= half
                    model.balances.add(new, half)
                    return Prediction(half, rule: "L3")
                },
                perform: { command, system in
                    guard case .split(let from, let new) = command else { return 0 }
                    let half = system.balances[from]! / 2
                    system.balances[from]! -= half
                    system.balances.add(new, half)
                    return half
                })]
    }
}

@Suite("chunk runs")
struct ChunkRunTests {
    /// What the search loop got before chunks ran without records: each case run alone, recorded.
    private func oneByOne(_ machine: AnyMachine, _ chunk: CaseChunk, seed: UInt64) -> ChunkReport {
        var report = ChunkReport()
        for index in chunk.indices {
            let run = machine.run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), 12, RunOptions(covers: true))
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
            let together = machine.runChunk(chunk, 7, 12, false) { _, _ in }
            let alone = oneByOne(machine, chunk, seed: 7)
            #expect(together == alone)
            #expect(!together.failures.isEmpty && together.failures.count < chunk.count)
            #expect(together.coverage.actions.map(\.failed).contains { $0 > 0 })
            #expect((together.coverage.predictions["T2"] ?? 0) > 0)
            #expect((together.coverage.invariants["T4"] ?? 0) > 0)
        }
    }

    @Test("coded commands, references and thrown errors: a chunk reports what its cases run one by one report")
    func codedAndThrowing() {
        let machine = AnyMachine(LedgerMachine())
        let chunk = CaseChunk(start: 0, stride: 1, count: 300)
        let together = machine.runChunk(chunk, 11, 12, false) { _, _ in }
        #expect(together == oneByOne(machine, chunk, seed: 11))
        let kinds = Set(together.failures.map(\.failure.kind))
        #expect(kinds == [.mismatch, .thrown])
        // The failures' messages name the step's whole trace, a coded command's and its references.
        #expect(together.failures.contains { $0.failure.message.hasPrefix("move(from: v") })
        #expect((together.coverage.predictions["L3"] ?? 0) > 0)
    }

    @Test("a chunk stops after its first failing case when asked")
    func stopsAtFirstFailure() {
        let machine = AnyMachine(TallyMachine())
        let chunk = CaseChunk(start: 0, stride: 1, count: 200)
        let report = machine.runChunk(chunk, 7, 12, true) { _, _ in }
        let first = oneByOne(machine, chunk, seed: 7).failures[0]
        #expect(report.failures == [first])
        #expect(report.cases == first.index + 1)
        #expect(report == oneByOne(machine, CaseChunk(start: 0, stride: 1, count: first.index + 1), seed: 7))
    }
}
