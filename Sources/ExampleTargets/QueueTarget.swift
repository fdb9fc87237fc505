import GraphFuzzEngine

/// The example target: a bounded queue against an array model. Small enough to read in a minute,
/// it exercises the whole path — generate, fail, shrink, report, corpus — and shows how to write a
/// machine of your own (README, "Writing your own machine").
public struct QueueMachine: StateMachine, Sendable {
    public static let rules = [
        Rule(id: "Q1", statement: "push succeeds exactly when fewer than `capacity` values are queued", source: "example", confidence: "design"),
        Rule(id: "Q2", statement: "pop returns the oldest queued value, or nil when empty", source: "example", confidence: "design"),
        Rule(id: "Q3", statement: "count equals the number of queued values", source: "example", confidence: "design"),
    ]
    public static let mutants = [
        Mutant(name: "queue-off-by-one", rule: "Q1", summary: "the ring accepts one value more than its capacity, overwriting the oldest"),
    ]

    public struct Config: TraceCodable, Sendable, Equatable {
        public var capacity: Int
        public var trace: TraceStep { TraceStep("config", [.init("capacity", .int(capacity))]) }
        public init(trace: TraceStep) throws(TraceError) { capacity = try trace.int("capacity", in: 1...8) }
        init(capacity: Int) { self.capacity = capacity }
    }

    /// The model: the queued values, oldest first.
    public struct Model: Sendable { var capacity: Int, values: [Int] = [] }
    /// What a step observes: push's result, or the value popped (nil when empty) or counted.
    public enum Observation: Equatable, Sendable, CustomStringConvertible {
        case pushed(Bool), value(Int?)
        public var description: String { switch self { case .pushed(let ok): "\(ok)"; case .value(let value): value.map(String.init) ?? "nil" } }
    }

    let fullCheck: BoundedQueue.FullCheck
    let commandWeights: [UInt32]

    /// - Parameter commandWeights: how often push, pop and count are chosen; corpus cases replay whatever
    ///   the weights (they store traces), which the tests demonstrate by changing them.
    public init(mutant: String?, commandWeights: [UInt32] = [4, 3, 1]) {
        fullCheck = mutant == "queue-off-by-one" ? .offByOne : .correct
        self.commandWeights = commandWeights
    }

    public func makeConfig(_ draw: Draw) -> Config { Config(capacity: draw.int(in: 1...4)) }
    public func makeModel(_ config: Config) -> Model { Model(capacity: config.capacity) }
    public func makeSystem(_ config: Config) -> BoundedQueue { BoundedQueue(capacity: config.capacity, fullCheck: fullCheck) }

    public var actions: [Action<Self>] {
        [Action("push", weight: commandWeights[0], arguments: { args, _ in args.int("value", in: 0...99) },
                predict: { value, model in
                    guard model.values.count < model.capacity else { return Prediction(.pushed(false), rule: "Q1") }
                    model.values.append(value)
                    return Prediction(.pushed(true), rule: "Q1")
                },
                perform: { value, queue in .pushed(queue.push(value)) }),
         Action("pop", weight: commandWeights[1],
                predict: { model in Prediction(.value(model.values.isEmpty ? nil : model.values.removeFirst()), rule: "Q2") },
                perform: { queue in .value(queue.pop()) }),
         Action("count", weight: commandWeights[2],
                predict: { model in Prediction(.value(model.values.count), rule: "Q3") },
                perform: { queue in .value(queue.count) })]
    }
}

extension Target {
    /// The example bounded-queue target.
    public static var queue: Target {
        Target(name: "queue", summary: "example: a bounded ring-buffer queue against an array model",
               rules: QueueMachine.rules, mutants: QueueMachine.mutants, defaultSteps: 20, generatorVersion: "2") { QueueMachine(mutant: $0) }
    }
}
