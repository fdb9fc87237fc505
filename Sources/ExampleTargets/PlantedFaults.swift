import GraphFuzzEngine

/// A small buffer with two real faults planted on purpose, for testing how `graph-fuzz` survives
/// crashes and hangs in worker processes. Never use it for anything else.
///
/// - `element(at:)` checks `index <= count` instead of `index < count`, so reading at `count`
///   really traps with "Index out of range".
/// - `rotate(by:)` rotates two places at a time, so an odd remainder never reaches zero and the
///   loop really never ends.
public struct PlantedBuffer: Sendable {
    public private(set) var values: [Int] = []

    public init() {}

    public mutating func append(_ value: Int) { values.append(value) }

    /// The value at `index`, or nil past the end. Planted fault: `index == count` traps.
    public func element(at index: Int) -> Int? {
        guard index <= values.count else { return nil }
        return values[index]
    }

    /// Moves the first `amount % count` values to the back. Planted fault: an odd remainder loops forever.
    public mutating func rotate(by amount: Int) {
        guard !values.isEmpty else { return }
        var remaining = amount % values.count
        while remaining != 0 {
            values.append(values.removeFirst())
            values.append(values.removeFirst())
            remaining -= 2
        }
    }
}

/// The test-only `planted` target: `PlantedBuffer` against an array model. Its production code
/// traps (minimal case: 2 steps, `append(value: 0)` then `element(at: 1)`; reads are generated
/// only from a non-empty buffer) and hangs (minimal case: 3 steps, two appends then `rotate(by: 1)`). The command line registers it only when the
/// environment variable `GRAPH_FUZZ_PLANTED_TARGETS=1` is set.
public struct PlantedFaultsMachine: StateMachine, Sendable {
    public static let rules = [
        Rule(id: "P1", statement: "append adds the value at the back", source: "test-only", confidence: "design"),
        Rule(id: "P2", statement: "element(at:) returns the value at the index, or nil at or past the end", source: "test-only", confidence: "design"),
        Rule(id: "P3", statement: "rotate(by:) moves the first amount % count values to the back", source: "test-only", confidence: "design"),
    ]

    public enum Command: TraceCodable, Sendable, Equatable {
        case append(Int)
        case element(Int)
        case rotate(Int)

        public var trace: TraceStep {
            switch self {
            case .append(let value): return TraceStep("append", [.init("value", .int(value))])
            case .element(let index): return TraceStep("element", [.init("at", .int(index))])
            case .rotate(let amount): return TraceStep("rotate", [.init("by", .int(amount))])
            }
        }

        public init(trace: TraceStep) throws(TraceError) {
            switch trace.name {
            case "append": self = .append(try trace.int("value", in: 0...9))
            case "element": self = .element(try trace.int("at", in: 0...99))
            case "rotate": self = .rotate(try trace.int("by", in: 0...9))
            default: throw TraceError("unknown command '\(trace.name)' (expected append, element or rotate)")
            }
        }
    }

    public enum Observation: Equatable, Sendable, CustomStringConvertible {
        case done
        case element(Int?)

        public var description: String {
            switch self {
            case .done: return "done"
            case .element(let value): return value.map(String.init) ?? "nil"
            }
        }
    }

    public init() {}

    public func makeModel(_ config: NoConfig) -> [Int] { [] }
    public func makeSystem(_ config: NoConfig) -> PlantedBuffer { PlantedBuffer() }

    public func nextCommand(_ model: [Int], _ draw: Draw) -> Command? {
        switch draw.chooseWeighted([24, 6, 1]) {
        case 0: return .append(draw.int(in: 0...9))
        case 1: return model.isEmpty ? .append(draw.int(in: 0...9)) : .element(draw.int(in: 0...model.count))
        default: return .rotate(draw.int(in: 0...9))
        }
    }

    public func precondition(_ command: Command, _ model: [Int]) -> Bool {
        if case .element(let index) = command { return index <= model.count }
        return true
    }

    public func expect(_ command: Command, _ model: inout [Int]) -> Expectation<Observation> {
        switch command {
        case .append(let value):
            model.append(value)
            return Expectation(.done, rule: "P1")
        case .element(let index):
            return Expectation(.element(index < model.count ? model[index] : nil), rule: "P2")
        case .rotate(let amount):
            if !model.isEmpty {
                let shift = amount % model.count
                model = Array(model[shift...] + model[..<shift])
            }
            return Expectation(.done, rule: "P3")
        }
    }

    public func run(_ command: Command, _ system: inout PlantedBuffer) -> Observation {
        switch command {
        case .append(let value):
            system.append(value)
            return .done
        case .element(let index): return .element(system.element(at: index))
        case .rotate(let amount):
            system.rotate(by: amount)
            return .done
        }
    }

    public static var swiftImports: [String] { ["ExampleTargets"] }

    public func swiftSetup(_ config: NoConfig) -> [String] { ["var buffer = PlantedBuffer()"] }

    public func swiftLines(_ command: Command, expected: Expectation<Observation>, isLast: Bool) -> [String] {
        switch command {
        case .append(let value): return ["buffer.append(\(value))"]
        case .rotate(let amount): return ["buffer.rotate(by: \(amount))"]
        case .element(let index):
            guard isLast, case .element(let value) = expected.value else { return [] }
            return ["#expect(buffer.element(at: \(index)) == \(value.map(String.init) ?? "nil"))  // \(expected.rule)"]
        }
    }
}

extension Target {
    /// The test-only target with a planted trap and a planted infinite loop.
    public static var planted: Target {
        Target(name: "planted", summary: "test-only: a buffer with a planted trap and a planted infinite loop",
               rules: PlantedFaultsMachine.rules, mutants: [], defaultSteps: 20, generatorVersion: "1") { _ in
            PlantedFaultsMachine()
        }
    }
}
