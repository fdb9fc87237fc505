import ExampleTargets
import GraphFuzzEngine
import GraphFuzzTesting
import Testing

/// A user-style machine with a bundle: accounts are opened (a created object, `v1`, `v2` …), paid into
/// and read. The planted fault: a deposit into the second account opened goes to the first.
struct BankMachine: StateMachine, Sendable {
    struct Model: Sendable { var accounts = Bundle<Int>() }
    struct System: Sendable { var accounts = Bundle<Int>(), opened: [Ref] = [] }
    let planted: Bool

    func makeModel(_ config: NoConfig) -> Model { Model() }
    func makeSystem(_ config: NoConfig) -> System { System() }

    var actions: [Action<Self>] {
        [Action("open", weight: 2, arguments: { args, _ in args.result() },
                predict: { ref, model in model.accounts.add(ref, 0); return Prediction("opened", rule: "K1") },
                perform: { ref, system in system.accounts.add(ref, 0); system.opened.append(ref); return "opened" }),
         Action("deposit", weight: 3, when: { !$0.accounts.isEmpty },
                arguments: { args, model in
                    let account = try args.ref("account", from: model.accounts)
                    let amount = args.int("amount", in: 1...9)
                    return (account, amount)
                },
                predict: { arguments, model in
                    model.accounts[arguments.0]! += arguments.1
                    return Prediction("\(model.accounts[arguments.0]!)", rule: "K2")
                },
                perform: { arguments, system in
                    let target = planted && system.opened.count > 1 && arguments.0 == system.opened[1] ? system.opened[0] : arguments.0
                    system.accounts[target]! += arguments.1
                    return "\(system.accounts[arguments.0]!)"
                })]
    }
}

@Suite("declarative machine API")
struct MachineAPITests {
    @Test("a failed precondition never rejects a case: only applicable actions are chosen")
    func preconditionsNeverReject() {
        let runner = MachineRunner(BankMachine(planted: false), maxSteps: 20)
        var coverage = Coverage()
        for seed in UInt64(1)...200 {
            let run = runner.run(Draw(seed: seed), RunOptions(covers: true))
            #expect(run.outcome == .pass)
            coverage.merge(run.coverage)
        }
        let deposit = coverage.actions.first { $0.name == "deposit" }
        #expect(coverage.cases == 200)
        #expect((deposit?.ran ?? 0) > 0)
        // Deposits were drawn before any account existed, and their precondition failing cost nothing.
        #expect((deposit?.failed ?? 0) > 0)
        #expect((deposit?.ran ?? 0) <= (deposit?.held ?? 0))
        #expect(coverage.predictions["K2"] == deposit?.ran)
        #expect(coverage.predictions["K1"] == coverage.actions.first { $0.name == "open" }?.ran)
    }

    @Test("bundles: the planted fault is found and shrunk to open, open, deposit into v2")
    func bundleFaultShrinks() throws {
        let target = Target(name: "bank", summary: "", rules: [], mutants: [], defaultSteps: 20, generatorVersion: "1") { _ in
            BankMachine(planted: true)
        }
        let found = try #require(try Campaign.firstFailure(target, options: SearchOptions(seed: 1, runs: 200)).failures.first)
        #expect(found.failure.rule == "K2")
        let steps = try #require(found.counterexample?.steps).map(\.description)
        #expect(steps == ["v1 = open()", "v2 = open()", "deposit(account: v2, amount: 1)"])
        let replayed = try AnyMachine(BankMachine(planted: false)).replay(TraceStep("config"), found.counterexample!.steps).get()
        #expect(replayed.outcome == .pass)
    }

    @Test("each step draws its action inside a .command span within its .step span; swarm draws come first")
    func spans() {
        let draw = Draw(seed: 7)
        let run = MachineRunner(QueueMachine(), maxSteps: 10).run(draw)
        let steps = draw.spans.filter { $0.label == .step }
        let commands = draw.spans.filter { $0.label == .command }
        #expect(commands.count == run.steps)
        for command in commands { #expect(steps.contains { $0.start <= command.start && command.end <= $0.end }) }
        let swarm = draw.spans.first { $0.label == .swarm }
        #expect(swarm != nil && swarm!.end <= (steps.first?.start ?? .max))
    }

    @Test("all-zero swarm choices enable every action (the simplest case uses them all)")
    func swarmZeroEnablesAll() {
        // Choices: capacity (0 → 1, and its sign, which every int draws), swarm off (0: every action
        // enabled), continue (1), action index 2 (count, the least likely action, which only an
        // all-enabled case can reach here), then continue 0.
        let run = MachineRunner(QueueMachine(), maxSteps: 5).run(Draw(replaying: ChoiceSequence([0, 0, 0, 1, 2])), .record)
        #expect(run.traces.map(\.name) == ["count"])
    }

    @Test("a user-style machine runs inside @Test through GraphFuzzTest.check")
    func userMachineInTest() {
        let result = GraphFuzzTest.check(BankMachine(planted: false), name: "bank", seed: 1, runs: 50)
        #expect(result.failure == nil)
        #expect(result.steps > 50)
    }
}
