import GraphFuzzCLI
import GraphFuzzEngine
import Testing

@Suite("Step-wise mutation for libFuzzer")
struct StepMutatorTests {
    private let steps = [1..<4, 4..<6, 6..<9]
    private let choices: [UInt64] = [9, 1, 2, 3, 1, 5, 1, 7, 8, 0]

    @Test("deleting, duplicating and swapping steps edit whole step spans")
    func operations() {
        var rng = SplitMix64(seed: 1)
        let deleted = StepMutator.apply(.deleteStep, to: choices, steps: steps, rng: &rng)
        #expect([[9, 1, 5, 1, 7, 8, 0], [9, 1, 2, 3, 1, 7, 8, 0], [9, 1, 2, 3, 1, 5, 0]].contains(deleted))
        let duplicated = StepMutator.apply(.duplicateStep, to: choices, steps: steps, rng: &rng)
        #expect(duplicated.count > choices.count && duplicated.first == 9 && duplicated.last == 0)
        let swapped = StepMutator.apply(.swapSteps, to: choices, steps: steps, rng: &rng)
        #expect(swapped.count == choices.count && swapped.sorted() == choices.sorted() && swapped != choices)
    }

    @Test("mutating a real case's bytes changes its steps and keeps it decodable", arguments: ["graph", "cache", "queue"])
    func mutatesCases(targetName: String) throws {
        let target = try #require(Registry.standard.target(named: targetName))
        let harness = FuzzHarness(target: target)
        let mutator = StepMutator(generate: harness.generate)
        let machine = target.machine()
        var changed = 0
        var seen = Set<StepMutator.Operation>()
        for seed in UInt64(1)...30 {
            let draw = Draw(seed: SplitMix64.caseSeed(run: 5, case: Int(seed)))
            harness.generate(draw)
            let bytes = harness.bytes(replaying: draw.sequence)
            guard let (mutated, operation) = mutator.mutate(bytes, seed: seed) else { continue }
            seen.insert(operation)
            let before = machine.generate(Draw(.bytes(bytes)), harness.maxSteps)
            let after = machine.generate(Draw(.bytes(mutated)), harness.maxSteps)
            if before != after { changed += 1 }
            // A deletion removes bytes; the case it decodes to may still grow, when the deleted step was
            // the one that ended the case (a trap ends a graph case, and the steps after it now run).
            if operation == .deleteStep { #expect(mutated.count < bytes.count, "a deletion removed no bytes") }
        }
        #expect(changed >= 15, "only \(changed) of 30 mutations changed the steps")
        #expect(seen == Set(StepMutator.Operation.allCases))
    }
}
