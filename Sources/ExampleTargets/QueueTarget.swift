package import FaultPoints
import GraphFuzzEngine

/// The example target: a bounded queue against an array model (README, "Writing your own machine").
public struct QueueMachine: StateMachine, SwiftExportable, Sendable {
    public struct Config: Sendable { var capacity: Int }
    public struct Model: Sendable { var capacity: Int, values: [Int] = [] }
    package static let mutants = MutantTable(shipped: Faults<BoundedQueue>.shipped, [
        Mutant(name: "queue-off-by-one", rule: "Q1", summary: "the ring accepts one value more than its capacity, overwriting the oldest"): [.offByOne],
    ])
    let faults: Faults<BoundedQueue>, weights: [UInt32]

    /// `weights`: how often push, pop and count are chosen (corpus cases replay whatever the weights: they keep traces).
    package init(faults: Faults<BoundedQueue> = .shipped, weights: [UInt32] = [4, 3, 1]) { (self.faults, self.weights) = (faults, weights) }

    public func makeConfig(_ args: inout Arguments) -> Config { Config(capacity: args.int("capacity", in: 1...4)) }
    public func makeModel(_ config: Config) -> Model { Model(capacity: config.capacity) }
    public func makeSystem(_ config: Config) -> BoundedQueue { BoundedQueue(capacity: config.capacity, faults: faults) }
    public static let swiftImports = ["ExampleTargets"]
    public func swiftSetup(_ config: Config) -> [String] { ["var queue = BoundedQueue(capacity: \(config.capacity))"] }

    public var actions: [Action<Self>] {
        [Action("push", weight: weights[0], arguments: { args, _ in args.int("value", in: 0...99) },
                predict: { value, model in
                    guard model.values.count < model.capacity else { return Prediction(false, rule: "Q1") }
                    model.values.append(value)
                    return Prediction(true, rule: "Q1")
                }, perform: { value, queue in queue.push(value) }, swift: { "queue.push(\($0))" }),
         Action("pop", weight: weights[1], predict: { model in Prediction(model.values.isEmpty ? nil : model.values.removeFirst(), rule: "Q2") },
                perform: { queue in queue.pop() }, swift: "queue.pop()"),
         Action("count", weight: weights[2], predict: { model in Prediction(model.values.count, rule: "Q3") },
                perform: { queue in queue.count }, swift: "queue.count")]
    }
}

extension Target {
    /// The example bounded-queue target.
    public static var queue: Target {
        Target(name: "queue", summary: "example: a bounded ring-buffer queue against an array model", rules: [
            Rule(id: "Q1", statement: "push succeeds exactly when fewer than `capacity` values are queued", source: "example", confidence: "design"),
            Rule(id: "Q2", statement: "pop returns the oldest queued value, or nil when empty", source: "example", confidence: "design"),
            Rule(id: "Q3", statement: "count equals the number of queued values", source: "example", confidence: "design"),
        ], mutants: QueueMachine.mutants, defaultSteps: 20, generatorVersion: "2") { QueueMachine(faults: $0) }
    }
}
