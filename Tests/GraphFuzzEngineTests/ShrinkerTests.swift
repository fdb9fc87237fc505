import GraphFuzzEngine
import Testing

@Suite("Shrinker")
struct ShrinkerTests {
    @Test("a candidate failing with another signature is never accepted (no slipping)")
    func noSlipping() {
        // Two bugs: a list with a value over 500 (rule A) and any list of length ≥ 3 (rule B).
        let gen = Gen<Int>.int(in: 0...1000).list(maxCount: 10, averageCount: 6)
        let test: (Draw) -> Outcome = { draw in
            let values = gen.generate(draw)
            if values.contains(where: { $0 > 500 }) { return .fail(Failure(rule: "A", kind: .mismatch, message: "big")) }
            if values.count >= 3 { return .fail(Failure(rule: "B", kind: .mismatch, message: "long")) }
            return .pass
        }
        var checked = 0
        for seed in UInt64(1)...200 {
            let draw = Draw(seed: seed)
            guard case .fail(let failure) = test(draw), failure.rule == "A" else { continue }
            let result = Shrinker(signature: failure.signature, test: test).shrink(draw.sequence)
            let shrunk = gen.generate(Draw(replaying: result.sequence))
            #expect(shrunk == [501], "seed \(seed): \(shrunk)")
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test("shrinking is deterministic and counts its attempts")
    func deterministic() throws {
        let gen = Gen<Int>.int(in: 0...10_000).list()
        let test: (Draw) -> Outcome = { draw in
            gen.generate(draw).reduce(0, +) > 1000 ? .fail(Failure(rule: "S", kind: .mismatch, message: "sum")) : .pass
        }
        let options = SearchOptions(seed: 3, runs: 100)
        let a = try Property.search(options, order: .seeded, test: test).failures.first
        let b = try Property.search(options, order: .seeded, test: test).failures.first
        #expect(a?.shrunk == b?.shrunk)
        #expect(a?.shrink.attempts == b?.shrink.attempts)
        #expect((a?.shrink.attempts ?? 0) > 0)
        #expect(a.map { gen.generate(Draw(replaying: $0.shrunk)) } == [1001])
        let passes = a?.shrink.passes ?? []
        // The search hands its own run of the failing case to the shrinker: only candidates count.
        #expect(passes.map(\.attempts).reduce(0, +) == (a?.shrink.attempts ?? 0))
    }

    @Test("a shrink given the run of its start does not run the start again")
    func knownStartRun() {
        final class Counter: @unchecked Sendable { var runs = 0 }
        let counter = Counter()
        let test: (Draw) -> Outcome = { draw in
            counter.runs += 1
            return draw.choose(upTo: 100) >= 7 ? .fail(Failure(rule: "K", kind: .mismatch, message: "")) : .pass
        }
        let signature = FailureSignature(rule: "K", kind: .mismatch)
        let start = Draw(replaying: ChoiceSequence([90]))
        let outcome = test(start)
        counter.runs = 0
        let given = Shrinker(signature: signature, test: test).shrink(ChoiceSequence([90]), run: CaseResult(outcome: outcome, consumed: start.consumed))
        #expect(given.sequence == ChoiceSequence([7]))
        #expect(counter.runs == given.attempts)
        counter.runs = 0
        let replayed = Shrinker(signature: signature, test: test).shrink(ChoiceSequence([90]))
        #expect(replayed.sequence == ChoiceSequence([7]))
        #expect(counter.runs == replayed.attempts && replayed.attempts == given.attempts + 1)
    }

    @Test("the budget stops a shrink and says so")
    func budget() {
        let gen = Gen<Int>.int(in: 0...1_000_000).list()
        let test: (Draw) -> Outcome = { draw in
            gen.generate(draw).count > 3 ? .fail(Failure(rule: "L", kind: .mismatch, message: "")) : .pass
        }
        let result = Shrinker(signature: FailureSignature(rule: "L", kind: .mismatch), budget: ShrinkBudget(maxAttempts: 3), test: test)
            .shrink(ChoiceSequence([1, 900, 1, 900, 1, 900, 1, 900, 1, 900, 0]))
        #expect(result.budgetExhausted)
        #expect(result.attempts <= 4)
    }
}

@Suite("Shrinker schedule")
struct ShrinkerScheduleTests {
    @Test("the stall budget ends a shrink that stops improving, and says so")
    func stallBudget() {
        // Only the exact value 777 fails: nothing simpler ever fails, so every run is a stall.
        let test: (Draw) -> Outcome = { draw in
            draw.choose(upTo: 1000) == 777 && draw.choose(upTo: 1000) == 777 ? .fail(Failure(rule: "S", kind: .mismatch, message: "")) : .pass
        }
        let signature = FailureSignature(rule: "S", kind: .mismatch)
        let stalled = Shrinker(signature: signature, budget: ShrinkBudget(maxStall: 5), test: test).shrink(ChoiceSequence([777, 777]))
        #expect(stalled.stalled && !stalled.budgetExhausted)
        #expect(stalled.attempts == 6)
        let full = Shrinker(signature: signature, test: test).shrink(ChoiceSequence([777, 777]))
        #expect(!full.stalled && full.attempts > 6)
        #expect(full.sequence == ChoiceSequence([777, 777]))
    }

    @Test("a candidate that would only repeat an earlier run's choices is not run again")
    func knownRunsAreSkipped() {
        // The first value decides whether a second is read; candidates that differ only in the
        // unread second value lead to a known end.
        final class Counter: @unchecked Sendable { var runs = 0 }
        let counter = Counter()
        let test: (Draw) -> Outcome = { draw in
            counter.runs += 1
            let a = draw.choose(upTo: 100)
            if a < 50 { return .pass }
            return draw.choose(upTo: 100) >= 1 ? .fail(Failure(rule: "K", kind: .mismatch, message: "")) : .pass
        }
        let result = Shrinker(signature: FailureSignature(rule: "K", kind: .mismatch), test: test).shrink(ChoiceSequence([90, 90]))
        #expect(result.sequence == ChoiceSequence([50, 1]))
        #expect(counter.runs == result.attempts)
        #expect(result.skipped > 0)
    }

    @Test("a pass that realigns a candidate already run reads what that run consumed instead of running it again")
    func realigningReusesKnownRuns() {
        // Steps of (continue flag, command, arguments): command 0 reads one argument, 1 reads two, 2 fails once
        // something was made. Minimise-choices lowers the first command alone (1 to 0: the second argument then
        // reads as the next step's flag); replace-step-action makes the same candidate and needs what it consumed
        // to realign the step.
        final class Runs: @unchecked Sendable { var consumed: [[UInt64]] = [] }
        let runs = Runs()
        let failure = Failure(rule: "R", kind: .mismatch, message: "")
        let test: (Draw) -> Outcome = { draw in
            var made = false, failed = false
            while draw.span(.step, { () -> Bool in
                guard draw.chooseBool() else { return false }
                switch draw.span(.command, { draw.choose(upTo: 2) }) {
                case 0: _ = draw.choose(upTo: 9); made = true
                case 1: _ = (draw.choose(upTo: 9), draw.choose(upTo: 9)); made = true
                default: failed = failed || made
                }
                return true
            }) {}
            runs.consumed.append(draw.consumed.choices)
            return failed ? .fail(failure) : .pass
        }
        let result = Shrinker(signature: failure.signature, passes: [.minimiseChoices, .replaceStepAction], test: test)
            .shrink(ChoiceSequence([1, 1, 5, 5, 1, 2, 0]))
        #expect(result.sequence.values == [1, 0, 0, 1, 2, 0])
        #expect(runs.consumed.count == result.attempts)
        #expect(Set(runs.consumed).count == runs.consumed.count, "a run repeated an earlier one's choices")
    }

    @Test("passes are reported in the order given, with their runs")
    func passStatistics() {
        let gen = Gen<Int>.int(in: 0...1000).list()
        let test: (Draw) -> Outcome = { draw in
            gen.generate(draw).filter { $0 > 100 }.count >= 2 ? .fail(Failure(rule: "L", kind: .mismatch, message: "")) : .pass
        }
        let result = Shrinker(signature: FailureSignature(rule: "L", kind: .mismatch), test: test)
            .shrink(ChoiceSequence([1, 500, 0, 1, 7, 0, 1, 900, 0, 0]))
        #expect(result.passes.map(\.pass) == ShrinkPass.standard.map(\.name))
        #expect(result.passes.allSatisfy { $0.runs >= 1 })
        #expect(result.passes.first { $0.pass == "delete-elements" }.map { $0.choicesRemoved >= 3 } == true)
        #expect(gen.generate(Draw(replaying: result.sequence)) == [101, 101])
    }
}
