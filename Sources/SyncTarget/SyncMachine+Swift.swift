import GraphFuzzEngine
import SyncSpec

extension SyncMachine: SwiftExportable {
    /// Modules an exported reproduction imports.
    public static var swiftImports: [String] { ["GlassSync"] }

    /// Swift source that builds the same world against the GlassSync API.
    public func swiftSetup(_ config: SyncConfig) -> [String] {
        let strategy = self.strategy.isShipped ? ".production" : self.strategy.swiftLiteral("SyncStrategy")
        return [
            "var world = SyncWorld(deviceCount: \(Self.deviceCount), granularity: .\(config.granularity.rawValue), strategy: \(strategy))",
            "let v1 = world.initialProjects[0], v2 = world.initialProjects[1], v3 = world.initialProjects[2]",
            "_ = (v1, v2, v3)",
        ] + config.start.swiftLines
    }

    /// Swift source for one step; the last step ends in the `#expect`s of what the specification predicts.
    func swiftLines(_ command: SyncCommand, _ expected: Prediction<SyncObservation>, _ step: TraceStep, _ isLast: Bool) -> [String] {
        var lines: [String]
        switch command {
        case .addItem(let d, let project, let collection, let code, let result):
            lines = ["let \(result) = try world.addItem(on: \(d.index), project: \(project), .\(collection.name), code: \(code)); _ = \(result)"]
        case .push(let d): lines = ["try world.push(\(d.index))"]
        case .fetch(let d, nil): lines = ["try world.fetch(\(d.index))"]
        case .fetch(let d, let deliver?):
            lines = ["try world.fetch(\(d.index), .records([\(deliver.map(\.description).joined(separator: ", "))]))"]
        case .migrate: lines = ["try world.rollOutNextPhase()"]
        case .removeItem(let d, let item): lines = ["try world.removeItem(on: \(d.index), item: \(item))"]
        case .moveItem(let d, let item, let to): lines = ["try world.moveItem(on: \(d.index), item: \(item), to: \(to))"]
        case .setQuantity(let d, let item, let quantity): lines = ["try world.setQuantity(on: \(d.index), item: \(item), \(quantity))"]
        case .createProject(let d, let kind, let result):
            lines = ["let \(result) = try world.createProject(on: \(d.index), kind: .\(["log", "plan", "step"][kind.rawValue])); _ = \(result)"]
        case .rollbackReads: lines = ["try world.rollbackReads()"]
        case .restart(let d): lines = ["try world.restart(\(d.index))"]
        }
        guard isLast else { return lines }
        lines.append("// \(expected.rule): the specification predicts \(expected.value)")
        for read in expected.value.reads {
            lines += Self.expectLines(read, call: "read")
        }
        for read in expected.value.mirrors ?? [] {
            lines += Self.expectLines(read, call: "readMirror", optional: true)
        }
        return lines
    }

    private static func expectLines(_ read: SpecCollectionRead, call: String, optional: Bool = false) -> [String] {
        let target = "try world.\(call)(on: \(read.device), project: v\(read.project + 1), .\(read.collection.name))"
        let q = optional ? "?" : ""
        let ids = read.items.map { "v\($0.item + 1)" }.joined(separator: ", ")
        let quantities = read.items.map { String($0.quantity) }.joined(separator: ", ")
        if read.precedences != nil {
            // The rules leave part of this order open: the items and their quantities, in any order.
            let pairs = read.items.map { "v\($0.item + 1): \($0.quantity)" }.joined(separator: ", ")
            // Parenthesized: `?.map` would chain to the array's `map`, not the optional's.
            let table = optional ? "(\(target)).map { Dictionary(uniqueKeysWithValues: $0.map { ($0.id, $0.quantity) }) }"
                : "Dictionary(uniqueKeysWithValues: \(target).map { ($0.id, $0.quantity) })"
            return ["#expect(\(table) == [\(pairs)])"]
        }
        var lines = ["#expect(\(target)\(q).map(\\.id) == [\(ids)])"]
        if read.collection.hasQuantity && !read.items.isEmpty {
            lines.append("#expect(\(target)\(q).map(\\.quantity) == [\(quantities)])")
        }
        return lines
    }
}
