import CacheTarget
import ExampleTargets
import GraphFuzzEngine
import GraphTarget
import MapperTarget
import SyncTarget

/// The targets `graph-fuzz` knows, in the order `all` runs them.
public struct Registry: Sendable {
    public var targets: [Target]

    public init(targets: [Target]) { self.targets = targets }

    /// Every shipped target.
    public static var standard: Registry {
        Registry(targets: [.graph, .mapper, .cache, .sync, .queue])
    }

    public func target(named name: String) -> Target? { targets.first { $0.name == name } }
}
