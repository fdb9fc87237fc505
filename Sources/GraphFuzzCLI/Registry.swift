import CacheTarget
import ExampleTargets
import GraphFuzzEngine
import GraphTarget
import MapperTarget
import SyncTarget

/// The targets `graph-fuzz` knows, in the order `all` runs them.
package struct Registry: Sendable {
    package var targets: [Target]

    package init(targets: [Target]) { self.targets = targets }

    /// Every shipped target.
    package static var standard: Registry {
        Registry(targets: [.graph, .schemas, .mapper, .cache, .sync, .queue])
    }

    package func target(named name: String) -> Target? { targets.first { $0.name == name } }
}
