import GraphFuzzEngine

/// Optional: failing queue cases print as Swift tests against `BoundedQueue`.
extension QueueMachine: SwiftExportable {
    public static var swiftImports: [String] { ["ExampleTargets"] }

    public func swiftSetup(_ config: Config) -> [String] { ["var queue = BoundedQueue(capacity: \(config.capacity))"] }

    public func swiftLines(_ command: Any, _ step: TraceStep, predicted: Prediction<Observation>, isLast: Bool) -> [String] {
        let call: String
        switch step.name {
        case "push": call = "queue.push(\(command as! Int))"
        case "pop": call = "queue.pop()"
        default: call = "queue.count"
        }
        if isLast { return ["#expect(\(call) == \(predicted.value))  // \(predicted.rule)"] }
        return step.name == "count" ? [] : ["_ = \(call)"]
    }
}
