/// Structure-aware mutation for a coverage-guided fuzzer (`LLVMFuzzerCustomMutator`).
///
/// Byte mutations shift every later choice; this mutator works on whole steps instead. It decodes
/// the bytes into the case's choices and its step spans (against the specification alone), then
/// deletes one step, duplicates one, or swaps two, and encodes the edited sequence again: the steps
/// after the edit keep their choices, re-drawn in the state the edit leaves, as in shrinking.
package struct StepMutator {
    /// What one mutation did to the steps.
    package enum Operation: String, CaseIterable, Sendable {
        case deleteStep = "delete-step", duplicateStep = "duplicate-step", swapSteps = "swap-steps"
    }

    /// Draws a case from a draw against the specification alone.
    private let generate: (Draw) -> Void

    package init(generate: @escaping (Draw) -> Void) {
        self.generate = generate
    }

    /// The mutated bytes and what was done, or nil when the case has no step to work on.
    package func mutate(_ bytes: [UInt8], seed: UInt64) -> (bytes: [UInt8], operation: Operation)? {
        let draw = Draw(.bytes(bytes))
        generate(draw)
        // A step span opens with its continue flag; 0 there is the stop, not a step.
        let steps = draw.spans.filter { $0.label == .step && $0.depth == 0 && $0.count > 1 && draw.choices[$0.start] == 1 }
            .map(\.range)
        guard !steps.isEmpty else { return nil }
        var rng = SplitMix64(seed: seed)
        let operations: [Operation] = steps.count > 1 ? Operation.allCases : [.deleteStep, .duplicateStep]
        let operation = operations[Int(rng.next(upTo: UInt64(operations.count - 1)))]
        let edited = Self.apply(operation, to: draw.choices, steps: steps, rng: &rng)
        return (ChoiceBytes.bytes(replaying: ChoiceSequence(edited), run: generate), operation)
    }

    /// `choices` with `operation` applied to the step ranges `steps` (sorted, disjoint).
    package static func apply(_ operation: Operation, to choices: [UInt64], steps: [Range<Int>], rng: inout SplitMix64) -> [UInt64] {
        let pick = { (rng: inout SplitMix64) in steps[Int(rng.next(upTo: UInt64(steps.count - 1)))] }
        var edited = choices
        switch operation {
        case .deleteStep:
            edited.removeSubrange(pick(&rng))
        case .duplicateStep:
            let step = pick(&rng)
            // The copy goes in front of a step chosen at random (or after the last one).
            let boundaries = steps.map(\.lowerBound) + [steps[steps.count - 1].upperBound]
            let at = boundaries[Int(rng.next(upTo: UInt64(boundaries.count - 1)))]
            edited.insert(contentsOf: choices[step], at: at)
        case .swapSteps:
            let first = Int(rng.next(upTo: UInt64(steps.count - 1)))
            var second = Int(rng.next(upTo: UInt64(steps.count - 2)))
            if second >= first { second += 1 }
            let (a, b) = (steps[min(first, second)], steps[max(first, second)])
            edited.replaceSubrange(b, with: choices[a])
            edited.replaceSubrange(a, with: choices[b])
        }
        return edited
    }
}
