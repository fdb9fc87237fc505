import Foundation
@testable import GraphFuzzEngine
import ScheduleSamples
import Testing

/// The lost-update counter as a machine: `increment` and `incrementLater` (which first writes `headStart`
/// entries to the ledger, outside the counter) may run concurrently; `value` reads the count. FIFO never loses
/// an update when the later increment has a head start, so only an interleaving that moves its read into
/// the other's suspension finds the bug.
struct CounterMachine: StateMachine, Sendable {
    var settings = ConcurrentSteps(groupProbability: 0.5, maxBranches: 2, strategy: .randomWalk)

    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> ReentrantCounter { ReentrantCounter() }
    var concurrentSteps: ConcurrentSteps { settings }

    var actions: [Action<Self>] {
        [.concurrent("increment", predict: { count in
            count += 1
            return Prediction("done", rule: "C1")
        }, perform: { counter in
            await counter.increment("X")
            return "done"
        }),
         .concurrent("incrementLater", arguments: { args, _ in args.int("headStart", in: 1...3) }, predict: { _, count in
             count += 1
             return Prediction("done", rule: "C1")
         }, perform: { headStart, counter in
             for entry in 0..<headStart { await counter.ledger.write(-1 - entry) }
             await counter.increment("Y")
             return "done"
         }),
         .concurrent("value", predict: { count in Prediction(count, rule: "C2") }, perform: { counter in await counter.value })]
    }
}

/// A register whose concurrent writes return nothing: two writes in one step leave either value, so the
/// runner follows both states until a read tells them apart. `stale` plants a read that returns the value
/// before the last write.
final class Register: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = [0]
    let stale: Bool

    init(stale: Bool) { self.stale = stale }

    func write(_ value: Int) async {
        await Task.yield()
        lock.withLock { values.append(value) }
    }

    func read() -> Int {
        lock.withLock { stale && values.count > 1 ? values[values.count - 2] : values.last! }
    }
}

struct RegisterMachine: StateMachine, Sendable {
    let stale: Bool
    /// Adds `peek`, a read drawn only beside a write (`joinsOnly`), weighted 5 to the write's 1.
    var peeks = false
    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> Register { Register(stale: stale) }
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 0.6, maxBranches: 3) }

    var actions: [Action<Self>] {
        [.concurrent("write", arguments: { args, _ in args.int("value", in: 1...9) }, predict: { value, register in
            register = value
            return Prediction("done", rule: "R1")
        }, perform: { value, register in
            await register.write(value)
            return "done"
        }),
         // A synchronous read: checked against every state the concurrent writes before it may have left.
         Action("read", predict: { register in Prediction(register, rule: "R2") }, perform: { register in register.read() })]
            + (peeks ? [.concurrent("peek", weight: 5, arguments: { _, _ in () }, predict: { _, register in Prediction(register, rule: "R2") },
                                    perform: { _, register in register.read() }, joinsOnly: true)] : [])
    }
}

/// Machines whose concurrent step deadlocks, never stops, throws, or resumes a continuation from another thread.
struct StuckMachine: StateMachine, Sendable {
    enum Kind: Sendable { case deadlock, livelock, throwing, outside }
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    let kind: Kind

    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> Gate { Gate() }
    /// No wait for outside work (nothing here hands work to other threads) but where it does.
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 0, maxJobs: 500, outsideWait: kind == .outside ? .seconds(1) : .zero) }

    var actions: [Action<Self>] {
        [.concurrent("poke", predict: { _ in Prediction(1, rule: "G1") }, perform: { gate in
            switch kind {
            case .deadlock: await gate.waitForever()
            case .livelock: while true { await Task.yield() }
            case .throwing: throw Boom()
            case .outside:
                // Resumed from a Dispatch thread once the task has suspended.
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { continuation.resume() }
                }
            }
            return 1
        })]
    }
}

/// A concurrent action whose arguments never fit, beside one that creates a reference: when the first is drawn, the
/// step falls back to the second, whose reference the runner must count (`make` predicts which one it gets).
struct FallbackMachine: StateMachine, Sendable {
    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> Gate { Gate() }

    var actions: [Action<Self>] {
        [Action("make", arguments: { args, _ in args.result() }, predict: { result, made in
            defer { made += 1 }
            return Prediction(result.index == made ? "next" : "v\(result.index + 1), after \(made)", rule: "F1")
        }, perform: { _, _ in "next" }),
         .concurrent("never", arguments: { args, _ in try args.require(false) }, predict: { _, _ in Prediction(0, rule: "F2") },
                     perform: { _, _ in 0 })]
    }
}

actor Gate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func waitForever() async { await withCheckedContinuation { waiting.append($0) } }
}

/// Runs `machine`'s search of seed `seed` in this process.
func search<M: StateMachine & Sendable>(_ machine: M, seed: UInt64 = 1, runs: Int = 300, maxSteps: Int = 10) throws(RunError) -> SearchRun {
    let target = Target(name: "machine", summary: "", rules: [], mutants: [], defaultSteps: maxSteps, generatorVersion: "0") { _ in machine }
    return try Campaign(selection: [(target, nil)], options: SearchOptions(seed: seed, runs: runs)).run { _ in }[0]
}

@Suite("concurrent steps")
struct ConcurrentStepTests {
    @Test("a lost update is found and shrunk to two increments in FIFO order and the read that sees it")
    func lostUpdateShrinks() throws {
        let run = try search(CounterMachine(), runs: 500)
        let found = try #require(run.failures.first)
        let record = try #require(found.counterexample)
        let failure = found.failure
        #expect(failure.rule == "C2" && failure.kind == .mismatch)
        #expect(record.steps.map(\.description) == ["concurrently(A: increment(), B: increment())", "value()"])
        #expect(record.expectations.map { $0.prefix { $0 != "\n" } } == ["A → done [C1], B → done [C1] (in the order A, B)", "2 [C2]"])
        // The step that lost the update shows its interleaving as lanes: both increments read before either writes.
        #expect(record.expectations[0].contains("(1) increment(_:) #1 → #2") && record.expectations[0].contains("(2) increment(_:) #1 → #2"))
        // The same seed again: the same case found, the same shrink, the same report.
        let again = try #require(try search(CounterMachine(), runs: 500).failures.first)
        #expect(again.counterexample == record && again.failure == failure)
        #expect(again.caseIndex == found.caseIndex && again.shrunk == found.shrunk)
    }

    @Test("a lost update only another interleaving shows: its trace keeps the schedule, and replays it")
    func scheduleReplays() throws {
        let machine = AnyMachine(CounterMachine())
        func withoutSchedules(_ steps: [TraceStep]) -> [TraceStep] {
            steps.map { step in step.name == "concurrently" ? TraceStep(step.name, step.arguments.filter { $0.label != "schedule" }) : step }
        }
        // A failing case whose steps pass in FIFO order: only its schedule loses the update.
        var found: CaseRecord?
        for seed in UInt64(1)...3000 where found == nil {
            let draw = Draw(seed: seed)
            guard machine.run(draw, 6, .search).outcome.failure != nil else { continue }
            let record = machine.record(draw.sequence, 6)
            if case .success(let fifo) = machine.replay(record.config, withoutSchedules(record.steps)), fifo.outcome == .pass { found = record }
        }
        let record = try #require(found)
        #expect(record.steps.contains { $0.arguments.contains { $0.label == "schedule" } })
        // The trace, read back from its text, replays the same interleaving and fails the same way.
        let steps = try record.steps.map { try TraceStep(parsing: Substring($0.description)) }
        #expect(steps == record.steps)
        #expect(try machine.replay(record.config, steps).get() == record)
    }

    @Test("a failing and a passing concurrent case, each run 500 times: one observation sequence each")
    func oneCaseOneObservation() throws {
        let machine = AnyMachine(CounterMachine(settings: ConcurrentSteps(groupProbability: 0.9, maxBranches: 2, strategy: .pct(depth: 2, expectedSteps: 16))))
        // A case with concurrent steps that passes, and one that fails.
        let cases = (UInt64(1)...200).lazy.map { Draw(seed: $0) }.map { draw in (draw, machine.run(draw, 8)) }
        let failing = try #require(cases.first { $0.1.outcome.failure != nil && $0.1.steps > 1 }?.0.sequence)
        let passing = try #require(cases.first { $0.1.outcome == .pass && machine.record($0.0.sequence, 8).steps.contains { $0.name == "concurrently" } }?.0.sequence)
        for sequence in [failing, passing] {
            var seen = Set<String>()
            for _ in 0..<500 {
                let record = machine.record(sequence, 8)
                seen.insert("\(record.steps) \(record.expectations) \(record.outcome)")
            }
            #expect(seen.count == 1, "\(seen)")
        }
    }

    @Test("writes that leave either value: every state they may leave is followed, and a stale read is caught")
    func ambiguousStates() throws {
        let correct = try search(RegisterMachine(stale: false), runs: 300)
        #expect(correct.failures.isEmpty, "\(correct.failures.first?.failure.message ?? "")")
        let stale = try search(RegisterMachine(stale: true), runs: 300)
        let failure = try #require(stale.failures.first?.failure)
        #expect(failure.rule == "R2")
    }

    @Test("a joinsOnly action is drawn only as a further branch: never a step's first action, never alone")
    func joinsOnlyBranches() {
        let machine = AnyMachine(RegisterMachine(stale: false, peeks: true))
        var joined = 0
        for seed in UInt64(1)...200 {
            for step in machine.generate(Draw(seed: seed), 10).dropFirst() {
                #expect(step.name != "peek", "seed \(seed): \(step)")
                guard step.name == "concurrently" else { continue }
                let names = step.arguments.compactMap { argument -> String? in
                    if case .step(let branch) = argument.value { return branch.name }
                    return nil
                }
                #expect(names.first == "write", "seed \(seed): \(step)")
                joined += names.dropFirst().filter { $0 == "peek" }.count
            }
        }
        #expect(joined > 0)
    }

    @Test("a deadlock, a livelock, a thrown error and work from another thread are each reported as what they are")
    func stuckSteps() throws {
        let deadlock = try #require(try search(StuckMachine(kind: .deadlock), runs: 20).failures.first?.failure)
        #expect(deadlock.kind == .deadlock && deadlock.rule == "deadlock")
        #expect(deadlock.message.contains("poke(): deadlock: nothing can run, and A started at #1 and has not returned"),
                "\(deadlock.message)")
        let livelock = try #require(try search(StuckMachine(kind: .livelock), runs: 20).failures.first?.failure)
        #expect(livelock.kind == .livelock && livelock.message.contains("ran 500 jobs without finishing"))
        #expect(livelock.message.contains("interleaving (the last 40 of 500 jobs):"))
        let thrown = try #require(try search(StuckMachine(kind: .throwing), runs: 20).failures.first?.failure)
        #expect(thrown.kind == .thrown && thrown.rule == "G1" && thrown.message.hasPrefix("poke(): A poke() threw boom"), "\(thrown.message)")
        do throws(RunError) {
            _ = try search(StuckMachine(kind: .outside), runs: 20)
            Issue.record("work from another thread was not a harness fault")
        } catch {
            if case .harnessFault(let fault) = error {
                #expect(fault.fault.message.contains("work from other threads reached the concurrent step"), "\(fault)")
            } else {
                Issue.record("the search stopped with \(error), not a harness fault")
            }
        }
    }

    @Test("a concurrent action without arguments that fit falls back to another, whose reference is counted")
    func fallbackCountsReferences() throws {
        let run = try search(FallbackMachine(), runs: 200)
        #expect(run.failures.isEmpty, "\(String(describing: run.failures.first?.failure))")
    }

    @Test("a concurrent step's trace names what cannot be replayed")
    func unreadableGroups() {
        let machine = AnyMachine(CounterMachine())
        func refusal(_ text: String) -> String? {
            guard let step = try? TraceStep(parsing: Substring(text)) else { return "unparsed" }
            if case .failure(let error) = machine.replay(TraceStep("config"), [step]) { return error.message }
            return nil
        }
        #expect(refusal("concurrently(A: increment(), B: nudge())")?.contains("unknown step 'nudge' in branch B") == true)
        #expect(refusal("concurrently(A: increment(), C: value())")?.contains("expected branch B, found 'C'") == true)
        #expect(refusal("concurrently(A: increment(), B: value(), schedule: [5, 5, 5])")?.contains("schedule pick 5 at job #") == true)
        #expect(refusal("concurrently(A: incrementLater(headStart: 9), B: value())")?.contains("branch A 'incrementLater(headStart: 9)': argument 'headStart'") == true)
        #expect(refusal("concurrently(A: increment(), B: value(), schedule: [1, 0])") == nil)
    }
}
