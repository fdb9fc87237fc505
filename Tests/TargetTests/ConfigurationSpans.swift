import GraphFuzzEngine

/// The configuration's span and the spans of the parameters it declares (`Arguments.parameters`) in one case of
/// `machine` drawn from seed 1.
func configurationSpans<M: StateMachine>(of machine: M) -> (config: Span?, parameters: [Span]) {
    let draw = Draw(seed: 1)
    _ = MachineRunner(machine, maxSteps: 2).run(draw)
    return (draw.spans.first { $0.label == .config }, draw.spans.filter { $0.label == .parameter })
}
