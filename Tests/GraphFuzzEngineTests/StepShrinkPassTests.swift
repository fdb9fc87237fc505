import GraphFuzzEngine
import Testing

/// The step-level shrink passes, each alone on a hand-built state-machine choice sequence: steps of
/// (continue flag, command, arguments) in `.step` and `.command` spans, as `MachineRunner` draws them.
@Suite("Step shrink passes")
struct StepShrinkPassTests {
    /// Runs steps until the continue flag is 0: `step` reads a command and its arguments and says
    /// whether the case fails (true), passes on (false) or is rejected (nil) after it.
    static func steps(_ draw: Draw, bound: UInt64, _ step: (UInt64) -> Bool?) -> Bool? {
        var failed = false
        while draw.span(.step, { () -> Bool in
            guard draw.chooseBool() else { return false }
            let command = draw.span(.command) { draw.choose(upTo: bound) }
            switch step(command) {
            case nil: draw.reject()
            case true?: failed = true
            case false?: break
            }
            return !draw.isRejected
        }) {}
        return draw.isRejected ? nil : failed
    }

    /// The configuration (drawn in a span labelled `configuration`) starts the case with 0...2 things made; command 0
    /// makes one, 1 does nothing, 2 fails once two are made.
    static func failsWithTwoMade(configuration: Span.Label) -> (Draw) -> Bool? {
        { draw in
            var made = Int(draw.span(configuration) { draw.choose(upTo: 2) })
            return steps(draw, bound: 2) { command in
                if command == 0 { made += 1 }
                return command == 2 && made >= 2
            }
        }
    }

    @Test("replace-step-action replaces a step's action by a simpler one and realigns its arguments")
    func replaceStepAction() {
        // Commands: 0 makes (one argument), 1 makes in style (two arguments), 2 fails once something was made.
        let start: [UInt64] = [1, 1, 5, 5, 1, 2, 0]
        let fails: (Draw) -> Bool? = { draw in
            var made = false
            return Self.steps(draw, bound: 2) { command in
                switch command {
                case 0: _ = draw.choose(upTo: 9); made = true
                case 1: _ = (draw.choose(upTo: 9), draw.choose(upTo: 9)); made = true
                default: return made
                }
                return false
            }
        }
        // Lowering the command alone misreads the second argument as the next step: nothing shorter.
        #expect(ShrinkPassTests.shrink(start, .minimiseChoices, fails: fails).sequence.count == start.count)
        let result = ShrinkPassTests.shrink(start, .replaceStepAction, fails: fails)
        #expect(result.sequence.values == [1, 0, 5, 1, 2, 0])
        #expect(result.passes[0].improvements == 1 && result.passes[0].choicesRemoved == 1)
    }

    @Test("replace-step-action tries the simplest action with each small argument, without the step it needed")
    func replaceStepActionExploring() {
        // Commands: 0 makes an object of a kind (0...3), 1 prepares, 2 derives a kind-3 object (only
        // after a prepare), 3 fails once a kind-3 object exists. Neither the prepare nor the derive
        // can go alone; a make of kind 3 replaces both.
        let start: [UInt64] = [1, 1, 1, 2, 1, 3, 0]
        let fails: (Draw) -> Bool? = { draw in
            var prepared = false, special = false
            return Self.steps(draw, bound: 3) { command in
                switch command {
                case 0: special = special || draw.choose(upTo: 3) == 3
                case 1: prepared = true
                case 2: guard prepared else { return nil }; special = true
                default: return special
                }
                return false
            }
        }
        #expect(ShrinkPassTests.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        #expect(ShrinkPassTests.shrink(start, .replaceStepAction, fails: fails).sequence.values == [1, 0, 3, 1, 3, 0])
    }

    @Test("move-step moves a step later where the order does not matter")
    func moveStep() {
        // The case fails when it holds a 3 and a 2; a 2 needs a 1 before it. No step can go; the 3 can move
        // later, past the 1, then past the 2.
        let start: [UInt64] = [1, 3, 1, 1, 1, 2, 0]
        let fails: (Draw) -> Bool? = { draw in
            var seen: Set<UInt64> = []
            return Self.steps(draw, bound: 3) { command in
                if command == 2 && !seen.contains(1) { return nil }
                seen.insert(command)
                return seen.contains(2) && seen.contains(3)
            }
        }
        #expect(ShrinkPassTests.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        let result = ShrinkPassTests.shrink(start, .moveStep, fails: fails)
        #expect(result.sequence.values == [1, 1, 1, 2, 1, 3, 0])
        #expect(result.passes[0].improvements == 2 && result.passes[0].choicesRemoved == 0)
    }

    @Test("change-config-delete-steps takes a richer start in place of the first steps that built it")
    func changeConfigDeletingSteps() {
        // The configuration starts the case with 0...2 things made; command 0 makes one, 1 does nothing,
        // 2 fails once two are made. Lowering cannot raise the start, and no make can go alone.
        let start: [UInt64] = [0, 1, 0, 1, 1, 1, 0, 1, 2, 0]
        let fails = Self.failsWithTwoMade(configuration: .config)
        #expect(ShrinkPassTests.shrink(start, .deleteSteps, fails: fails).sequence.values == [0, 1, 0, 1, 0, 1, 2, 0])
        #expect(ShrinkPassTests.shrink(start, .minimiseChoices, fails: fails).sequence.count == start.count)
        let result = ShrinkPassTests.shrink(start, .changeConfigDeletingSteps, fails: fails)
        #expect(result.sequence.values == [2, 1, 0, 1, 2, 0])  // the do-nothing step is delete-steps' to take
        #expect(result.passes[0].improvements == 2 && result.passes[0].choicesRemoved == 4)
        // Without a configuration span it tries nothing.
        #expect(ShrinkPassTests.shrink(Array(start.dropFirst()), .changeConfigDeletingSteps) { draw in
            Self.steps(draw, bound: 2) { $0 == 2 }
        }.attempts == 1)
    }

    @Test("the configuration passes try nothing on a configuration drawn as parameters (it cannot stand for steps)")
    func parametersStandForNoSteps() {
        // The case of change-config-delete-steps' test, its configuration drawn in a `.parameters` span.
        let start: [UInt64] = [0, 1, 0, 1, 1, 1, 0, 1, 2, 0]
        let fails = Self.failsWithTwoMade(configuration: .parameters)
        #expect(ShrinkPassTests.shrink(start, .changeConfigDeletingSteps, fails: fails).attempts == 1)
        #expect(ShrinkPassTests.shrink(start, .changeConfigDeletingStepRepointing, fails: fails).attempts == 1)
    }

    @Test("the configuration passes leave a choice drawn as a parameter inside the configuration alone")
    func parameterInsideConfiguration() {
        // The configuration draws a backend (0 or 1; on 1 the case starts with one thing made), then the start of
        // change-config-delete-steps' test. Made, made, fail: the backend raised stands for a make, as the start does.
        func fails(backend: Span.Label) -> (Draw) -> Bool? {
            { draw in
                var made = 0
                draw.span(.config) {
                    made += Int(draw.span(backend) { draw.choose(upTo: 1) })
                    made += Int(draw.choose(upTo: 2))
                }
                return Self.steps(draw, bound: 2) { command in
                    if command == 0 { made += 1 }
                    return command == 2 && made >= 2
                }
            }
        }
        let start: [UInt64] = [0, 0, 1, 0, 1, 0, 1, 2, 0]
        // A plain choice of the configuration is raised in place of a step.
        #expect(ShrinkPassTests.shrink(start, .changeConfigDeletingSteps, fails: fails(backend: .value)).sequence.values == [1, 1, 1, 2, 0])
        // Declared a parameter, the backend stays; the start stands for the steps.
        let result = ShrinkPassTests.shrink(start, .changeConfigDeletingSteps, fails: fails(backend: .parameter))
        #expect(result.sequence.values == [0, 2, 1, 2, 0])
        #expect(ShrinkPassTests.shrink(start, .changeConfigDeletingStepRepointing, fails: fails(backend: .parameter)).sequence.values.first == 0)
    }

    @Test("lower-parameters sets each parameter a configuration declares to zero first, once; undeclared choices it leaves alone")
    func lowerParameters() {
        // A configuration (a `.config` span, or `.parameters` as a whole) of a backend, declared a parameter or not,
        // and a start; command 2 fails, on backend 1 alone when `needsBackend`.
        func fails(_ configuration: Span.Label, declared: Bool, needsBackend: Bool) -> (Draw) -> Bool? {
            { draw in
                var backend: UInt64 = 0
                draw.span(configuration) {
                    backend = declared ? draw.span(.parameter) { draw.choose(upTo: 1) } : draw.choose(upTo: 1)
                    _ = draw.choose(upTo: 2)
                }
                return Self.steps(draw, bound: 2) { $0 == 2 && (backend == 1 || !needsBackend) }
            }
        }
        func shrink(_ fails: @escaping (Draw) -> Bool?) -> ShrinkResult {
            Shrinker(signature: ShrinkPassTests.failure.signature, passes: [.lowerParameters, .deleteSteps]) { draw in
                switch fails(draw) {
                case nil: .rejected
                case true?: .fail(ShrinkPassTests.failure)
                case false?: .pass
                }
            }.shrink(ChoiceSequence([1, 0, 1, 0, 1, 2, 0]))
        }
        for configuration in [Span.Label.config, .parameters] {
            let lowered = shrink(fails(configuration, declared: true, needsBackend: false))
            #expect(lowered.sequence.values == [0, 0, 1, 2, 0])
            #expect(lowered.passes[0].attempts == 1 && lowered.passes[0].improvements == 1)
        }
        // A backend the failure needs is tried at zero once, not in every round the deletions start again.
        let needed = shrink(fails(.config, declared: true, needsBackend: true))
        #expect(needed.sequence.values == [1, 0, 1, 2, 0])
        #expect(needed.passes[0].attempts == 1 && needed.passes[0].improvements == 0)
        // A choice not declared a parameter is minimise-choices' to lower.
        #expect(shrink(fails(.parameters, declared: false, needsBackend: false)).passes[0].attempts == 0)
        #expect(shrink(fails(.config, declared: false, needsBackend: false)).passes[0].attempts == 0)
    }

    @Test("change-config-delete-step-repoint takes a richer start in place of a step and re-points a later reference")
    func changeConfigDeletingStepRepointing() {
        // The configuration starts the case with 0...2 things; command 0 makes one more, command 1 touches the
        // thing at an index drawn among all of them. The case fails when a made thing is touched while two things
        // exist. Made, made, touch the first: a richer start in place of a make shifts the made thing to index 1,
        // so the plain deletion touches the start's thing; the candidate that also re-points the touch fails.
        let start: [UInt64] = [0, 1, 0, 1, 0, 1, 1, 0, 0]
        let fails: (Draw) -> Bool? = { draw in
            let started = Int(draw.span(.config) { draw.choose(upTo: 2) })
            var count = started
            return Self.steps(draw, bound: 1) { command in
                if command == 0 {
                    count += 1
                    return false
                }
                guard count > 0 else { return nil }
                let touched = Int(draw.choose(upTo: UInt64(count - 1)))
                return touched >= started && count >= 2
            }
        }
        #expect(ShrinkPassTests.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        #expect(ShrinkPassTests.shrink(start, .changeConfigDeletingSteps, fails: fails).sequence.values == start)
        let result = ShrinkPassTests.shrink(start, .changeConfigDeletingStepRepointing, fails: fails)
        #expect(result.sequence.values == [1, 1, 0, 1, 1, 1, 0])  // start 1, make, touch the made thing at index 1
        #expect(result.passes[0].improvements == 1 && result.passes[0].choicesRemoved == 2)
        // It never lowers the configuration: from the richest start nothing is tried.
        let richest: [UInt64] = [2, 1, 0, 1, 1, 2, 0]
        #expect(ShrinkPassTests.shrink(richest, .changeConfigDeletingStepRepointing, fails: fails).attempts == 1)
    }

    @Test("delete-step-repoint deletes a step and re-points a later reference the deletion shifted, even one that had one thing to name")
    func deleteStepRepointing() {
        // Command 0 makes a thing (numbered in making order), 1 removes the thing at an index drawn among the present
        // ones, 2 touches one the same way; the case fails when thing 1 is touched. Make, make, remove the first,
        // touch the only one left (index 0, bound 0): without the removal index 0 names thing 0, so the plain deletion
        // passes; the touch re-pointed to index 1 (above its old bound) fails.
        let start: [UInt64] = [1, 0, 1, 0, 1, 1, 0, 1, 2, 0, 0]
        let fails: (Draw) -> Bool? = { draw in
            var present: [Int] = [], made = 0
            return Self.steps(draw, bound: 2) { command in
                if command == 0 {
                    present.append(made)
                    made += 1
                    return false
                }
                guard !present.isEmpty else { return nil }
                let index = Int(draw.choose(upTo: UInt64(present.count - 1)))
                if command == 1 {
                    present.remove(at: index)
                    return false
                }
                return present[index] == 1
            }
        }
        #expect(ShrinkPassTests.shrink(start, .deleteSteps, fails: fails).sequence.values == start)
        #expect(ShrinkPassTests.shrink(start, .deleteSpanLowerNeighbour, fails: fails).sequence.values == start)
        let result = ShrinkPassTests.shrink(start, .deleteStepRepoint, fails: fails)
        #expect(result.sequence.values == [1, 0, 1, 0, 1, 2, 1, 0])  // make, make, touch index 1
        #expect(result.passes[0].improvements == 1 && result.passes[0].choicesRemoved == 3)
        // A single step leaves nothing to delete.
        #expect(ShrinkPassTests.shrink([1, 0, 0], .deleteStepRepoint) { draw in Self.steps(draw, bound: 2) { _ in true } }.attempts == 1)
    }

    @Test("the step passes cost nothing on a sequence without steps")
    func noSteps() {
        let result = ShrinkPassTests.shrink([1, 3, 1, 50, 0], .replaceStepAction) { ShrinkPassTests.values.generate($0).contains(50) }
        #expect(result.attempts == 1 && result.sequence.values == [1, 3, 1, 50, 0])
        #expect(ShrinkPassTests.shrink([1, 3, 1, 50, 0], .moveStep) { ShrinkPassTests.values.generate($0).contains(50) }.attempts == 1)
    }
}
