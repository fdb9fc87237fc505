import Foundation
@testable import GraphFuzzEngine
import GraphFuzzTesting
import ScheduleSamples
import Testing

/// The savings actor as a machine: transfers may run concurrently and be cancelled at their await; what a
/// cancelled transfer may leave is the specification's (nothing moved). The money is checked by an invariant
/// that awaits the actor.
struct SavingsMachine: StateMachine, Sendable {
    let design: Savings.Design

    struct Balances: Hashable, Sendable {
        var checking = 100
        var savings = 0
    }

    func makeModel(_ config: NoConfig) -> Balances { Balances() }
    func makeSystem(_ config: NoConfig) -> Savings { Savings(design) }
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 0.5, maxBranches: 2) }

    var actions: [Action<Self>] {
        [.concurrent("moveToSavings", arguments: { args, _ in args.int("amount", in: 1...9) }, predict: { amount, balances in
            balances.checking -= amount
            balances.savings += amount
            return Prediction("moved", rule: "S1")
        }, cancelled: { _, _ in Prediction("cancelled", rule: "S2") }, perform: { amount, savings in
            do {
                try await savings.moveToSavings(amount)
                return "moved"
            } catch is CancellationError {
                return "cancelled"
            }
        })]
    }

    var invariants: [Invariant<Self>] {
        [Invariant("S3", async: { balances, savings in
            let (checking, saved) = (await savings.checking, await savings.savings)
            guard checking != balances.checking || saved != balances.savings else { return nil }
            return "checking \(checking), savings \(saved): expected \(balances.checking) and \(balances.savings)"
        })]
    }
}

/// A shelf whose sale reads the stock, awaits the till and writes what it read minus one: two sales at once lose one.
/// Whichever step reads the stock next shows it: a count (R2) or a restock, which returns the new stock (R3).
final class Shelf: @unchecked Sendable {
    private let lock = NSLock()
    private var stock = 10

    func sell() async {
        let left = lock.withLock { stock }
        await Task.yield()
        lock.withLock { stock = left - 1 }
    }

    var count: Int { lock.withLock { stock } }

    func restock(_ amount: Int) -> Int {
        lock.withLock {
            stock += amount
            return stock
        }
    }
}

struct ShelfMachine: StateMachine, Sendable {
    func makeModel(_ config: NoConfig) -> Int { 10 }
    func makeSystem(_ config: NoConfig) -> Shelf { Shelf() }
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 0.5, maxBranches: 2) }

    var actions: [Action<Self>] {
        [.concurrent("sell", predict: { stock in
            stock -= 1
            return Prediction("sold", rule: "R1")
        }, perform: { shelf in
            await shelf.sell()
            return "sold"
        }),
         Action("count", predict: { stock in Prediction(stock, rule: "R2") }, perform: { shelf in shelf.count }),
         Action("restock", arguments: { args, _ in args.int("amount", in: 1...3) }, predict: { amount, stock in
             stock += amount
             return Prediction(stock, rule: "R3")
         }, perform: { amount, shelf in shelf.restock(amount) })]
    }
}

/// One concurrent action whose perform runs on the main actor: returning from it hops back to the harness's wrapper.
struct MainActorHopMachine: StateMachine, Sendable {
    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> MainActorHopMachine.Stateless { Stateless() }
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 1, maxBranches: 2) }

    /// The system: nothing to share.
    final class Stateless: Sendable {}

    var actions: [Action<Self>] {
        [.concurrent("hop", predict: { _ in Prediction("done", rule: "H") }, perform: { @MainActor _ in "done" })]
    }
}

/// A concurrent action whose perform is a static method, not a closure literal (Swift 6.3's compiler crashes on a
/// method reference passed as a `nonisolated(nonsending)` function, so `perform` keeps a plain `@Sendable` async type).
struct FunctionPerformMachine: StateMachine, Sendable {
    /// Adds one and returns the new count; `racy`: reads, yields, then writes what it read plus one.
    actor Tally {
        let racy: Bool
        var count = 0
        init(racy: Bool) { self.racy = racy }

        func add() async -> Int {
            guard racy else {
                count += 1
                return count
            }
            let seen = count
            await Task.yield()
            count = seen + 1
            return count
        }
    }

    let racy: Bool
    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> Tally { Tally(racy: racy) }
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 1, maxBranches: 2) }

    @Sendable static func add(_ tally: Tally) async -> Int { await tally.add() }

    var actions: [Action<Self>] {
        [.concurrent("add", predict: { count in
            count += 1
            return Prediction(count, rule: "T")
        }, perform: Self.add)]
    }
}

@Suite("concurrency in state machines")
struct MachineConcurrencyTests {
    @Test("a perform given as a static method runs under the scheduler: a racy tally's lost add is found, an atomic one passes")
    func functionPerform() throws {
        let racy = try search(FunctionPerformMachine(racy: true))
        let found = try #require(racy.failures.first)
        #expect(found.failure.rule == "T" && found.failure.kind == .linearizability, "\(found.failure)")
        #expect(found.counterexample?.steps.first?.description.hasPrefix("concurrently(A: add(), B: add()") == true,
                "\(String(describing: found.counterexample?.steps))")
        #expect(try search(FunctionPerformMachine(racy: false)).failures.isEmpty)
    }


    @Test("lanes name the code under test, never the harness's wrapper around an action's perform")
    func harnessWrapperUnnamed() throws {
        let step = try TraceStep(parsing: "concurrently(A: hop(), B: hop())")
        let record = try AnyMachine(MainActorHopMachine()).replay(TraceStep("config"), [step]).get()
        let lanes = try #require(record.expectations.first)
        #expect(lanes.contains("interleaving:") && lanes.contains("MainActor"), "\(lanes)")
        // A perform that returns to the wrapper `returns`; the wrapper's job after it is the `branch` finishing.
        #expect(!lanes.contains("Action.concurrent") && !lanes.contains("PendingBranch"), "\(lanes)")
        #expect(lanes.contains("closure in actions.getter #1 → returns") && lanes.contains("branch; finished"), "\(lanes)")
    }

    @Test("a transfer cancelled at its await leaves the money in neither account: an async invariant reads it off the actor, one cancellation shrunk")
    func cancelledTransferFound() throws {
        let run = try search(SavingsMachine(design: .halfUpdated))
        let found = try #require(run.failures.first)
        #expect(run.failures.count == 1)
        #expect(found.failure.rule == "S3" && found.failure.kind == .invariant, "\(found.failure)")
        let record = try #require(found.counterexample)
        // Shrunk to one transfer of the least amount, cancelled at the first point it can be: its await.
        #expect(record.steps.map(\.description) == ["concurrently(A: moveToSavings(amount: 1), cancel: [1])"], "\(record.steps)")
        #expect(found.failure.message.contains("checking 99, savings 0: expected 100 and 0"), "\(found.failure.message)")
        // What a cancelled call may leave is the specification's: the shipped design leaves nothing, and passes.
        #expect(try search(SavingsMachine(design: .auditFirst)).failures.isEmpty)
    }

    @Test("a trace's cancellation replays: the same step, the same failure; without it, the transfer completes")
    func cancellationReplays() throws {
        let machine = AnyMachine(SavingsMachine(design: .halfUpdated))
        let cancelled = [TraceStep("concurrently", [.init("A", .step(TraceStep("moveToSavings", [.init("amount", .int(3))]))),
                                                    .init("cancel", .list([.int(1)]))])]
        let replayed = try machine.replay(TraceStep("config"), cancelled).get()
        #expect(replayed.outcome.failure?.rule == "S3")
        let completed = [TraceStep("moveToSavings", [.init("amount", .int(3))])]
        #expect(try machine.replay(TraceStep("config"), completed).get().outcome == .pass)
        // A cancellation of an action that is not cancellable is refused, naming the step.
        let shelf = AnyMachine(ShelfMachine())
        let refused = [TraceStep("concurrently", [.init("A", .step(TraceStep("sell"))), .init("cancel", .list([.int(2)]))])]
        guard case .failure(let error) = shelf.replay(TraceStep("config"), refused) else { Issue.record("replayed"); return }
        #expect(error.message.contains("'cancel' cancels branch A, which is not a cancellable action's"), "\(error.message)")
    }

    @Test("one lost update, seen by a count in some cases and by a restock in others, is reported once")
    func lostUpdateReportedOnce() throws {
        let run = try search(ShelfMachine(), runs: 400)
        let found = try #require(run.failures.first)
        #expect(run.failures.count == 1, "\(run.failures.map { ($0.failure.rule, $0.counterexample?.steps.map(\.description) ?? []) })")
        let rules = Set([found.failure.rule] + found.alsoBroken.map(\.failure.rule))
        #expect(rules == ["R2", "R3"], "\(rules)")
        let report = FailureReport(found, caseCount: found.caseCount).text
        #expect(report.contains("the same interleaving also broke"), "\(report)")
    }

    @Test("a concurrent failure's report draws its interleaving as lanes and exports a test that replays its schedule")
    func lanesAndReplayTest() throws {
        let run = try search(ShelfMachine(), runs: 400)
        let found = try #require(run.failures.first)
        let report = FailureReport(found, caseCount: found.caseCount)
        let record = try #require(found.counterexample)
        let concurrent = try #require(record.steps.first { $0.name == "concurrently" })
        // The lanes, under the step that lost the update: a column per branch, each cell the code its task ran and the
        // await it stopped at — both sales read and suspend (`started → Task.yield`) before either writes.
        let text = report.text
        let lanes = try #require(text.range(of: "interleaving:")).upperBound
        let header = text[lanes...].split(separator: "\n")[0]
        #expect(header.contains("│ A") && header.contains("│ B"), "\(text)")
        #expect(text.components(separatedBy: "started → Task.yield #2").count == 3, "\(text)")
        // The exported test replays the steps, the schedule with them, through the harness.
        let test = report.swiftTest
        #expect(test.contains("GraphFuzzTest.replay(Target.machine,") && test.contains(TraceValue.quote(concurrent.description)), "\(test)")
        // Replayed, the case fails again the same way (its issue is known here); the fixed order passes.
        withKnownIssue("expected: the replayed lost update fails again") {
            #expect(!GraphFuzzTest.replay(ShelfMachine(), steps: record.steps.map(\.description)))
        }
        #expect(GraphFuzzTest.replay(ShelfMachine(), steps: ["sell()", "sell()", "count()"]))
    }
}
