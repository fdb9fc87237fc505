import ExampleTargets
import GraphFuzzEngine
import GraphTarget

/// The targets `graph-fuzz` knows, in the order `all` runs them.
public struct Registry: Sendable {
    public var targets: [Target]

    public init(targets: [Target]) { self.targets = targets }

    /// Every shipped target.
    public static var standard: Registry {
        Registry(targets: [.graph, .queue])
    }

    public func target(named name: String) -> Target? { targets.first { $0.name == name } }
}
