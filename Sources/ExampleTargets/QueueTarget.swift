import GraphFuzzEngine

/// The example target: a bounded queue against an array model. Small enough to read in a minute,
/// it exercises the whole path — generate, fail, shrink, report, corpus — and shows how to write a
/// machine of your own.
public struct QueueMachine: StateMachine, Sendable {
    /// Q1–Q3: the queue's rules.
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
        public init(capacity: Int) { self.capacity = capacity }
        public init(trace: TraceStep) throws(TraceError) {
            guard trace.name == "config" else { throw TraceError("expected 'config(…)', found '\(trace.name)'") }
            capacity = try trace.int("capacity", in: 1...8)
        }
    }

    public enum Command: TraceCodable, Sendable, Equatable {
        case push(Int)
        case pop
        case count

        public var trace: TraceStep {
            switch self {
            case .push(let value): return TraceStep("push", [.init("value", .int(value))])
            case .pop: return TraceStep("pop")
            case .count: return TraceStep("count")
            }
        }

        public init(trace: TraceStep) throws(TraceError) {
            switch trace.name {
            case "push": self = .push(try trace.int("value", in: 0...99))
            case "pop": self = .pop
            case "count": self = .count
            default: throw TraceError("unknown command '\(trace.name)' (expected push, pop or count)")
            }
        }
    }

    public enum Observation: Equatable, Sendable, CustomStringConvertible {
        case pushed(Bool)
        case popped(Int?)
        case count(Int)

        public var description: String {
            switch self {
            case .pushed(let ok): return "push → \(ok)"
            case .popped(let value): return "pop → \(value.map(String.init) ?? "nil")"
            case .count(let n): return "count → \(n)"
            }
        }
    }

    public struct Model: Sendable {
        var capacity: Int
        var values: [Int] = []
    }

    let fullCheck: BoundedQueue.FullCheck
    /// Weights of push, pop and count when generating.
    let commandWeights: [UInt32]

    /// - Parameter commandWeights: how often push, pop and count are generated; corpus cases replay
    ///   whatever the weights (they store traces), which the tests demonstrate by changing them.
    public init(mutant: String?, commandWeights: [UInt32] = [4, 3, 1]) {
        fullCheck = mutant == "queue-off-by-one" ? .offByOne : .correct
        self.commandWeights = commandWeights
    }

    public func makeConfig(_ draw: Draw) -> Config { Config(capacity: draw.int(in: 1...4)) }
    public func makeModel(_ config: Config) -> Model { Model(capacity: config.capacity) }
    public func makeSystem(_ config: Config) -> BoundedQueue { BoundedQueue(capacity: config.capacity, fullCheck: fullCheck) }

    public func nextCommand(_ model: Model, _ draw: Draw) -> Command? {
        switch draw.chooseWeighted(commandWeights) {
        case 0: return .push(draw.int(in: 0...99))
        case 1: return .pop
        default: return .count
        }
    }

    public func expect(_ command: Command, _ model: inout Model) -> Expectation<Observation> {
        switch command {
        case .push(let value):
            guard model.values.count < model.capacity else { return Expectation(.pushed(false), rule: "Q1") }
            model.values.append(value)
            return Expectation(.pushed(true), rule: "Q1")
        case .pop:
            return Expectation(.popped(model.values.isEmpty ? nil : model.values.removeFirst()), rule: "Q2")
        case .count:
            return Expectation(.count(model.values.count), rule: "Q3")
        }
    }

    public func run(_ command: Command, _ system: inout BoundedQueue) -> Observation {
        switch command {
        case .push(let value): return .pushed(system.push(value))
        case .pop: return .popped(system.pop())
        case .count: return .count(system.count)
        }
    }

    public static var swiftImports: [String] { ["ExampleTargets"] }

    public func swiftSetup(_ config: Config) -> [String] {
        ["var queue = BoundedQueue(capacity: \(config.capacity))"]
    }

    public func swiftLines(_ command: Command, expected: Expectation<Observation>, isLast: Bool) -> [String] {
        let call: String
        switch command {
        case .push(let value): call = "queue.push(\(value))"
        case .pop: call = "queue.pop()"
        case .count: call = "queue.count"
        }
        let value: String
        switch expected.value {
        case .pushed(let ok): value = "\(ok)"
        case .popped(let popped): value = popped.map(String.init) ?? "nil"
        case .count(let n): value = "\(n)"
        }
        if isLast { return ["#expect(\(call) == \(value))  // \(expected.rule)"] }
        if case .count = command { return [] }
        return ["_ = \(call)"]
    }
}

extension Target {
    /// The example bounded-queue target.
    public static var queue: Target {
        Target(name: "queue", summary: "example: a bounded ring-buffer queue against an array model",
               rules: QueueMachine.rules, mutants: QueueMachine.mutants, defaultSteps: 20, generatorVersion: "1") { mutant in
            QueueMachine(mutant: mutant)
        }
    }
}
