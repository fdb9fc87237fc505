import GraphFuzzEngine
import Testing

/// One test per shrink pass: the pass alone, on a hand-built choice sequence, reaches the expected
/// sequence (Hypothesis' tests/conjecture/test_shrinker.py does the same per pass).
@Suite("Shrink passes")
struct ShrinkPassTests {
    static let failure = Failure(rule: "P", kind: .mismatch, message: "")

    /// Shrinks `start` with `pass` only; the test fails the case when `fails` says so (nil rejects).
    static func shrink(_ start: [UInt64], _ pass: ShrinkPass, fails: @escaping (Draw) -> Bool?) -> ShrinkResult {
        Shrinker(signature: failure.signature, passes: [pass]) { draw in
            switch fails(draw) {
            case nil: return .rejected
            case true?: return .fail(failure)
            case false?: return .pass
            }
        }.shrink(ChoiceSequence(start))
    }

    /// A raw value in 0...bound (one choice).
    static func value(_ draw: Draw, _ bound: UInt64 = 100) -> UInt64 { draw.choose(upTo: bound) }

    static let values = Gen<UInt64> { $0.choose(upTo: 100) }.list()

    @Test("every standard pass has a distinct name and is found by it")
    func namedPasses() {
        let names = ShrinkPass.standard.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { ShrinkPass.named($0)?.name == $0 })
        #expect(ShrinkPass.named("no-such-pass") == nil)
    }

    @Test("delete-steps removes steps that do not matter")
    func deleteSteps() {
        // Steps of (continue flag, command); the case fails when some command is 7.
        let result = Self.shrink([1, 3, 1, 7, 1, 5, 1, 2, 0], .deleteSteps) { draw in
            var commands: [UInt64] = []
            while let command = draw.span(.step, { draw.chooseBool() ? draw.span(.command) { Self.value(draw, 9) } : nil }) {
                commands.append(command)
            }
            return commands.contains(7)
        }
        #expect(result.sequence.values == [1, 7, 0])
        #expect(result.passes.map(\.pass) == ["delete-steps"])
        #expect(result.passes[0].improvements > 0 && result.passes[0].choicesRemoved == 6)
    }

    @Test("delete-elements removes list elements that do not matter")
    func deleteElements() {
        let result = Self.shrink([1, 3, 1, 50, 1, 9, 0], .deleteElements) { Self.values.generate($0).contains(50) }
        #expect(result.sequence.values == [1, 50, 0])
    }

    @Test("delete-elements deletes runs of elements, not one at a time")
    func deleteElementRuns() {
        // 20 elements; the case fails while the first is 50 and there are at least two.
        let start: [UInt64] = [1, 50] + (1...19).flatMap { [1, UInt64($0)] } + [0]
        let result = Self.shrink(start, .deleteElements) { draw in
            let list = Self.values.generate(draw)
            return list.count >= 2 && list[0] == 50
        }
        #expect(result.sequence.values == [1, 50, 1, 1, 0])
        // One by one would take 18 deletions and a failed one per remaining element.
        #expect(result.attempts < 15, "\(result.attempts) attempts")
    }

    @Test("delete-elements learns the size drawn after a list from its first discarded deletion and lowers it with later ones")
    func deleteElementsWithLearntPartner() {
        // The list, then its size (must equal its length); fails when the sum reaches 10. Every
        // deletion alone is discarded; lowering the size by the deletion's length is not.
        let start: [UInt64] = [1, 20, 1, 7, 1, 7, 1, 7, 1, 7, 0, 5]
        let result = Self.shrink(start, .deleteElements, fails: { draw in
            let list = Self.values.generate(draw)
            guard Self.value(draw, 50) == UInt64(list.count) else { return nil }
            return list.reduce(0, +) >= 10
        })
        #expect(result.sequence.values == [1, 20, 0, 1])
        #expect(result.passes[0].choicesRemoved == 8)
        #expect(result.attempts < 12, "\(result.attempts) attempts")
    }

    @Test("delete-elements cuts a long list to the shortest prefix that still fails")
    func truncateLists() {
        // 16 elements; fails when the list holds two different values (the first two differ).
        let start: [UInt64] = [1, 3, 1, 4] + (1...14).flatMap { [1, UInt64($0 % 5)] } + [0]
        let result = Self.shrink(start, .deleteElements) { draw in Set(Self.values.generate(draw)).count >= 2 }
        #expect(result.sequence.values == [1, 3, 1, 4, 0])
        // Keeping 1 passes and keeping 2 fails: two runs, then one deletion per element left.
        #expect(result.attempts <= 5, "\(result.attempts) attempts")
    }

    @Test("delete-elements leaves a list whose prefixes are discarded to single deletions")
    func truncationStopsAtAssumption() {
        // Every element must index into the list; fails when it holds a 3. A prefix of one element
        // is discarded (3 is past its end), so cutting stops there.
        let start: [UInt64] = [1, 0, 1, 3, 1, 1, 1, 2, 1, 0, 0]
        let result = Self.shrink(start, .deleteElements) { draw in
            let list = Self.values.generate(draw)
            guard list.allSatisfy({ $0 < list.count }) else { return nil }
            return list.contains(3)
        }
        let shrunk = Self.values.generate(Draw(replaying: result.sequence))
        #expect(shrunk.count == 4 && shrunk.contains(3), "\(shrunk)")
    }

    @Test("delete-elements re-indexes a list whose elements point into it when a deletion alone breaks that")
    func deleteElementsReindexes() {
        // Every element must index into the list; fails when two elements point at each other.
        // [0, 0, 3, 2]: deleting the first 0 leaves 3 past the end; with the values past it one
        // lower, [0, 2, 1] still holds the pair.
        let indices = Gen<UInt64> { $0.choose(upTo: 10) }.list()
        let result = Self.shrink([1, 0, 1, 0, 1, 3, 1, 2, 0], .deleteElements) { draw in
            let list = indices.generate(draw).map(Int.init)
            guard list.allSatisfy({ $0 < list.count }) else { return nil }
            return list.indices.contains { list[$0] != $0 && list[list[$0]] == $0 }
        }
        #expect(result.sequence.values == [1, 1, 1, 0, 0])
    }

    @Test("remove-discarded deletes a filter's rejected tries in one candidate")
    func removeDiscarded() {
        // A value kept when at least 10 (its tries 3 and 5 rejected), then another; fails when the
        // kept value reaches 20.
        let kept = Gen<UInt64> { $0.choose(upTo: 100) }.filter { $0 >= 10 }
        let fails: (Draw) -> Bool? = { draw in
            let value = kept.generate(draw)
            _ = Self.value(draw)
            return value >= 20
        }
        let result = Self.shrink([3, 5, 40, 7], .removeDiscarded, fails: fails)
        #expect(result.sequence.values == [40, 7])
        // The start's run and one candidate; without discarded spans, the start's run alone.
        #expect(result.attempts == 2, "\(result.attempts) attempts")
        #expect(Self.shrink([40, 7], .removeDiscarded, fails: fails).attempts == 1)
    }

    @Test("minimise-choices lowers a filtered value past the values its filter rejects")
    func minimiseRefitsKeptTry() {
        // A divisor in 1...20, then a value kept when the divisor divides it; fails when the divisor
        // is at least 2 and the value at least 100. From (7, 693): the divisor at 2 rejects 693 (the
        // refit offers 692), and every odd value the search of the value meets is refitted to an even one.
        let fails: (Draw) -> Bool? = { draw in
            let divisor = Self.value(draw, 19) + 1
            let value = Gen<UInt64> { $0.choose(upTo: 1000) }.filter { $0 % divisor == 0 }.generate(draw)
            return divisor >= 2 && value >= 100
        }
        #expect(Self.shrink([6, 693], .minimiseChoices, fails: fails).sequence.values == [1, 100])
    }

    @Test("zero-spans sets a whole span to zero")
    func zeroSpans() {
        let result = Self.shrink([4, 6, 1], .zeroSpans) { draw in
            _ = draw.span(Span.Label(rawValue: 100)) { (Self.value(draw), Self.value(draw)) }
            return Self.value(draw) >= 1
        }
        #expect(result.sequence.values == [0, 0, 1])
    }

    /// Steps of (continue flag, command, schedule) ending with a flag of 0, as a concurrent step draws them: the
    /// schedule's picks (0 or 1) go on until they add up to at least 4, a 0 counting 2 and a 1 counting 1, so a
    /// schedule changed makes more or fewer picks than it had. Returns each step's command and picks.
    static func scheduledSteps(_ draw: Draw) -> [(command: UInt64, picks: [UInt64])] {
        var steps: [(command: UInt64, picks: [UInt64])] = []
        while let step = draw.span(.step, { () -> (command: UInt64, picks: [UInt64])? in
            guard draw.chooseBool() else { return nil }
            let command = draw.span(.command) { Self.value(draw, 9) }
            let picks = draw.span(.schedule) { () -> [UInt64] in
                var picks: [UInt64] = []
                while picks.reduce(0, { $0 + ($1 == 0 ? 2 : 1) }) < 4 { picks.append(draw.choose(upTo: 1)) }
                return picks
            }
            return (command, picks)
        }) {
            steps.append(step)
        }
        return steps
    }

    @Test("zero-spans zeroes a schedule and realigns the steps after it when the zeroed schedule makes fewer picks")
    func zeroSpansRealignsSchedule() {
        // The case fails when a step's command is 7; its schedule does not matter. Four picks of 1 zeroed make two
        // picks: as it is, the candidate reads the next step's flag and command as picks, and has no second step.
        let result = Self.shrink([1, 3, 1, 1, 1, 1, 1, 7, 0, 0, 0, 0], .zeroSpans) { draw in
            Self.scheduledSteps(draw).contains { $0.command == 7 }
        }
        #expect(result.sequence.values == [1, 3, 0, 0, 1, 7, 0, 0, 0])
    }

    @Test("lower-schedule-picks lowers a schedule to one deviation from FIFO, realigning the steps after it")
    func lowerSchedulePicks() {
        // The case fails when a step's command is 7 after a schedule that picked a 1 somewhere (an all-zero one
        // passes): the simplest such schedule is [0, 1, 0], a deviation at the second pick.
        let result = Self.shrink([1, 3, 1, 1, 1, 1, 1, 7, 1, 1, 1, 1, 0], .lowerSchedulePicks) { draw in
            let steps = Self.scheduledSteps(draw)
            return steps.indices.contains { $0 > 0 && steps[$0].command == 7 && steps[$0 - 1].picks.contains(1) }
        }
        #expect(result.sequence.values == [1, 3, 0, 1, 0, 1, 7, 0, 0, 0])
        #expect(result.passes.map(\.pass) == ["lower-schedule-picks"] && result.passes[0].improvements > 0)
    }

    @Test("replace-with-descendant collapses a tree into the subtree that fails")
    func replaceWithDescendant() {
        // A tree: 0 = leaf with a value, 1 = pair of trees; fails when some leaf holds 5.
        indirect enum Tree { case leaf(UInt64), pair(Tree, Tree)
            var leaves: [UInt64] { switch self { case .leaf(let v): return [v]; case .pair(let a, let b): return a.leaves + b.leaves } }
        }
        func tree(_ draw: Draw) -> Tree {
            draw.span(.oneOf) { draw.chooseUniform(upTo: 1) == 0 ? .leaf(Self.value(draw)) : .pair(tree(draw), tree(draw)) }
        }
        let result = Self.shrink([1, 0, 3, 1, 0, 5, 0, 2], .replaceWithDescendant) { tree($0).leaves.contains(5) }
        #expect(result.sequence.values == [0, 5])
    }

    @Test("lower-duplicates lowers values that must stay equal together")
    func lowerDuplicates() {
        let result = Self.shrink([500, 500], .lowerDuplicates) { draw in
            let (a, b) = (Self.value(draw, 1000), Self.value(draw, 1000))
            return a == b && a >= 10
        }
        #expect(result.sequence.values == [10, 10])
    }

    @Test("minimise-choices lowers each choice as far as it goes")
    func minimiseChoices() {
        let result = Self.shrink([700, 3], .minimiseChoices) { draw in Self.value(draw, 1000) >= 37 }
        #expect(result.sequence.values == [37])
    }

    @Test("minimise-choices zeroes an integer's magnitude and sign in one candidate")
    func minimiseZeroesWholeInteger() {
        // Two integers around zero (magnitude, sign); fails while the second is not 0.
        let ints = Gen<Int>.int(in: -100...100)
        let result = Self.shrink([5, 1, 7, 1], .minimiseChoices) { draw in
            _ = ints.generate(draw)
            return ints.generate(draw) != 0
        }
        #expect(result.sequence.values == [0, 0, 1, 0])
        // The start, [0 0 7 1], [0 0 0 0], [0 0 1 1], [0 0 1 0]. Lowering magnitudes alone would
        // also run [0 1 7 1] and, once the sign is 0, [0 0 0 0] beside [0 0 0 1]: seven.
        #expect(result.attempts == 5, "\(result.attempts) attempts")
    }

    @Test("minimise-choices tries one and two below before a binary search, and stops there when both pass")
    func minimiseOneAndTwoBelow() {
        // Fails only at 37 and 39 (a hole at 38): one below passes, two below fails.
        final class Counter: @unchecked Sendable { var runs = 0 }
        let counter = Counter()
        let result = Self.shrink([39], .minimiseChoices) { draw in
            counter.runs += 1
            let v = Self.value(draw, 1000)
            return v == 37 || v == 39
        }
        #expect(result.sequence.values == [37])
        // The start, 0, 1, 38, 37, then a binary search below 37 (six runs).
        #expect(result.attempts == 11, "\(result.attempts) attempts")
        #expect(counter.runs == result.attempts)
    }

    @Test("sort-siblings puts sibling spans in order")
    func sortSiblings() {
        let result = Self.shrink([1, 9, 1, 2, 0], .sortSiblings) { draw in
            let list = Self.values.generate(draw)
            return list.count >= 2 && list.contains(9)
        }
        #expect(result.sequence.values == [1, 2, 1, 9, 0])
    }

    @Test("delete-blocks joins neighbouring lists")
    func deleteBlocks() {
        let lists = Gen<UInt64> { $0.choose(upTo: 10) }.list().list()
        let result = Self.shrink([1, 1, 4, 0, 1, 1, 5, 0, 0], .deleteBlocks) { draw in lists.generate(draw).joined().count >= 2 }
        // The two lists become one (a single-choice deletion may also zero the second value).
        let shrunk = lists.generate(Draw(replaying: result.sequence))
        #expect(shrunk.count == 1 && shrunk[0].count == 2 && shrunk[0][0] == 4, "\(shrunk)")
    }

    @Test("delete-span-lower-neighbour deletes an element and lowers the size drawn after the list")
    func deleteSpanLowerNeighbour() {
        // The list, then its size (must equal its length); fails when the sum reaches 10.
        let start: [UInt64] = [1, 20, 1, 3, 0, 2]
        let fails: (Draw) -> Bool? = { draw in
            let list = Self.values.generate(draw)
            guard Self.value(draw, 50) == UInt64(list.count) else { return nil }
            return list.reduce(0, +) >= 10
        }
        let shrunk = Self.shrink(start, .deleteSpanLowerNeighbour, fails: fails).sequence.values
        #expect(shrunk.count == 4 && Array(shrunk[2...]) == [0, 1], "\(shrunk)")
    }

    @Test("delete-span-lower-neighbour deletes a step and lowers the next step's command")
    func deleteStepLowerCommand() {
        // Commands: 0 does nothing, 1 fails alone, 2 creates, 3 uses what 2 created and fails.
        // Deleting the create alone is discarded; deleting it and lowering "use" to 1 fails.
        let start: [UInt64] = [1, 2, 1, 3, 0]
        let fails: (Draw) -> Bool? = { draw in
            var created = false, failed = false
            while draw.span(.step, { () -> Bool in
                guard draw.chooseBool() else { return false }
                let command = draw.span(.command) { Self.value(draw, 3) }
                if command == 3 && !created { draw.reject() }
                if command == 2 { created = true }
                if command == 1 || command == 3 { failed = true }
                return true
            }) {}
            return draw.isRejected ? nil : failed
        }
        #expect(Self.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        #expect(Self.shrink(start, .deleteSpanLowerNeighbour, fails: fails).sequence.values == [1, 1, 0])
    }

    @Test("delete-span-lower-neighbour realigns the next step when its simpler command reads fewer arguments")
    func deleteStepLowerCommandRealigned() {
        // Commands: 0 does nothing, 1 fails alone, 2 creates and 3 uses what 2 created and fails, each with two
        // arguments. With the create deleted and "use" lowered to 1, the use's arguments are left over: read as they
        // stand they make a next step that uses nothing created (rejected); the realigned step reads none of them.
        let start: [UInt64] = [1, 2, 4, 4, 1, 3, 5, 5, 0]
        let fails: (Draw) -> Bool? = { draw in
            var created = false, failed = false
            while draw.span(.step, { () -> Bool in
                guard draw.chooseBool() else { return false }
                let command = draw.span(.command) { Self.value(draw, 3) }
                if command >= 2 { _ = (Self.value(draw, 9), Self.value(draw, 9)) }
                if command == 3 && !created { draw.reject() }
                if command == 2 { created = true }
                if command == 1 || command == 3 { failed = true }
                return true
            }) {}
            return draw.isRejected ? nil : failed
        }
        let result = Self.shrink(start, .deleteSpanLowerNeighbour, fails: fails)
        #expect(result.sequence.values == [1, 1, 0])
        // Per value of the command, the candidate as it stands and, once, the realigned one: not every number of
        // left-over choices dropped.
        #expect(result.attempts <= 5, "\(result.attempts) attempts")
    }

    @Test("delete-span-lower-neighbour deletes a step and lowers a choice of the step before")
    func deleteStepLowerPrevious() {
        // Commands: 1 marks, 2 creates outside (context 1) or inside (0), 3 moves what 2 created inside.
        // The case fails when it marked and holds an object inside: a create inside replaces the move.
        let start: [UInt64] = [1, 2, 1, 1, 3, 1, 1, 0]
        let fails: (Draw) -> Bool? = { draw in
            var context: UInt64?, marked = false
            while draw.span(.step, { () -> Bool in
                guard draw.chooseBool() else { return false }
                switch draw.span(.command, { Self.value(draw, 3) }) {
                case 1: marked = true
                case 2: context = Self.value(draw, 1)
                case 3: if context == nil { draw.reject() } else { context = 0 }
                default: break
                }
                return true
            }) {}
            return draw.isRejected ? nil : marked && context == 0
        }
        #expect(Self.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        #expect(Self.shrink(start, .deleteSpanLowerNeighbour, fails: fails).sequence.values == [1, 2, 0, 1, 1, 0])
    }

    @Test("delete-abandoned-commands deletes an action attempt that found no arguments, so an earlier step can go")
    func deleteAbandonedCommands() {
        // Commands: 1 fails, 2 creates, 3 draws an argument and is abandoned (drawn again) once something
        // was created. Deleting the create alone lets the abandoned 3 run instead of the failing 1.
        let start: [UInt64] = [1, 2, 1, 3, 5, 1, 0]
        let fails: (Draw) -> Bool? = { draw in
            var created = false, failed = false
            while draw.span(.step, { () -> Bool in
                guard draw.chooseBool() else { return false }
                while true {
                    let command = draw.span(.command) { Self.value(draw, 3) }
                    if command == 3 {
                        _ = Self.value(draw, 9)
                        if created { continue }
                    }
                    if command == 2 { created = true }
                    if command == 1 { failed = true }
                    return true
                }
            }) {}
            return failed
        }
        #expect(Self.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        #expect(Self.shrink(start, .deleteAbandonedCommands, fails: fails).sequence.values == [1, 2, 1, 1, 0])
        let both = Shrinker(signature: Self.failure.signature, passes: [.deleteSteps, .deleteAbandonedCommands]) { draw in
            fails(draw)! ? .fail(Self.failure) : .pass
        }.shrink(ChoiceSequence(start))
        #expect(both.sequence.values == [1, 1, 0])
    }

    @Test("lower-and-realign lowers a branch and keeps what follows aligned")
    func lowerAndRealign() {
        // A branch: 0 reads one value, 1 reads two; then a last value that must be at least 5.
        let result = Self.shrink([1, 3, 4, 7], .lowerAndRealign) { draw in
            _ = draw.span(.oneOf) { draw.chooseUniform(upTo: 1) == 0 ? [Self.value(draw)] : [Self.value(draw), Self.value(draw)] }
            return Self.value(draw) >= 5
        }
        #expect(result.sequence.values == [0, 3, 7])
    }

    @Test("redistribute moves an amount between two choices that must keep their sum")
    func redistribute() {
        let result = Self.shrink([60, 50], .redistribute) { draw in Self.value(draw, 1000) + Self.value(draw, 1000) >= 100 }
        // Together first (both down while the sum holds), then the rest moved from the first.
        #expect(result.sequence.values == [0, 100])
    }

    @Test("redistribute does not move an integer's last unit of magnitude into its sign (that reads 0 again)")
    func redistributeSkipsNegativeZero() {
        let int = Gen<Int>.int(in: -100...100)
        let one = Self.shrink([1, 0], .redistribute) { draw in int.generate(draw) >= -1 }
        #expect(one.sequence.values == [1, 0])
        #expect(one.passes.map(\.attempts) == [0], "+1 to -0 is the 0 minimise-choices tries")
        let two = Self.shrink([2, 0], .redistribute) { draw in int.generate(draw) >= -1 }
        #expect(two.sequence.values == [1, 1], "+2 to -1 still moves")
    }

    @Test("lower-to-held-value lowers an element to the value another element of its list holds")
    func lowerToHeldValue() {
        // Indices into the list; fails when following them from element 0 comes back to it.
        let indices = Gen<Int>.int(in: 0...20).list()
        func cycles(_ list: [Int]) -> Bool {
            var position = 0
            for _ in list.indices {
                guard position < list.count else { return false }
                position = list[position]
                if position == 0 { return true }
            }
            return false
        }
        // [3, 0, 0, 1]: 0 → 3 → 1 → 0. The only smaller non-zero value another element holds is 1,
        // so one candidate: [1, 0, 0, 1], 0 → 1 → 0, still a cycle.
        let result = Self.shrink([1, 3, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0], .lowerToHeldValue) { draw in cycles(indices.generate(draw)) }
        #expect(result.sequence.values == [1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0])
        #expect(result.passes.map(\.attempts) == [1])
    }

    @Test("redistribute lowers two choices together when they must keep their order")
    func redistributeTogether() {
        let result = Self.shrink([60, 80], .redistribute) { draw in
            let (a, b) = (Self.value(draw, 1000), Self.value(draw, 1000))
            return b >= a + 20
        }
        #expect(result.sequence.values == [0, 20])
    }
}
