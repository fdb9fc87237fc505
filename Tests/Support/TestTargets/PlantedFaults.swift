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
/// only from a non-empty buffer) and hangs (minimal case: 3 steps, two appends then `rotate(by: 1)`). Registered only by the test
/// executable `graph-fuzz-planted`, never by `graph-fuzz`.
public struct PlantedFaultsMachine: StateMachine, Sendable {
    public static let rules = [
        Rule(id: "P1", statement: "append adds the value at the back", source: "test-only", confidence: "design"),
        Rule(id: "P2", statement: "element(at:) returns the value at the index, or nil at or past the end", source: "test-only", confidence: "design"),
        Rule(id: "P3", statement: "rotate(by:) moves the first amount % count values to the back", source: "test-only", confidence: "design"),
    ]

    public init() {}

    public func makeModel(_ config: NoConfig) -> [Int] { [] }
    public func makeSystem(_ config: NoConfig) -> PlantedBuffer { PlantedBuffer() }

    public var actions: [Action<Self>] {
        [Action("append", weight: 24, arguments: { args, _ in args.int("value", in: 0...9) },
                predict: { value, model in
                    model.append(value)
                    return Prediction("done", rule: "P1")
                },
                perform: { value, buffer in
                    buffer.append(value)
                    return "done"
                }, swiftLines: { value, _, _, _ in ["buffer.append(\(value))"] }),
         Action("element", weight: 6, when: { !$0.isEmpty },
                arguments: { args, model in
                    let index = args.int("at", in: 0...99) { $0.int(in: 0...model.count) }
                    try args.require(index <= model.count)
                    return index
                },
                predict: { index, model in Prediction(index < model.count ? model[index] : nil, rule: "P2") },
                perform: { index, buffer in buffer.element(at: index) },
                swiftLines: { index, predicted, _, isLast in
                    isLast ? ["#expect(buffer.element(at: \(index)) == \(predicted.value.map(String.init) ?? "nil"))  // \(predicted.rule)"] : []
                }),
         Action("rotate", weight: 1, arguments: { args, _ in args.int("by", in: 0...9) },
                predict: { amount, model in
                    if !model.isEmpty {
                        let shift = amount % model.count
                        model = Array(model[shift...] + model[..<shift])
                    }
                    return Prediction("done", rule: "P3")
                },
                perform: { amount, buffer in
                    buffer.rotate(by: amount)
                    return "done"
                }, swiftLines: { amount, _, _, _ in ["buffer.rotate(by: \(amount))"] })]
    }
}

extension PlantedFaultsMachine: SwiftExportable {
    public static var swiftImports: [String] { ["TestTargets"] }

    public func swiftSetup(_ config: NoConfig) -> [String] { ["var buffer = PlantedBuffer()"] }
}

extension Target {
    /// The test-only target with a planted trap and a planted infinite loop.
    public static var planted: Target {
        Target(name: "planted", summary: "test-only: a buffer with a planted trap and a planted infinite loop",
               rules: PlantedFaultsMachine.rules, mutants: [], defaultSteps: 20, generatorVersion: "2") { _ in
            PlantedFaultsMachine()
        }
    }
}
