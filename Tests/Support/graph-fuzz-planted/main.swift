import Foundation
import GraphFuzzCLI
import TestTargets

// `graph-fuzz` with the test-only targets registered beside the shipped ones: `planted` (a real trap and a real
// infinite loop) and `planted-harness` (a harness that cannot write its scratch file). The tests that must start a
// real executable that crashes, hangs or faults start this one; `graph-fuzz` itself never holds these targets.
var registry = Registry.standard
registry.targets += [.planted, .plantedHarnessFault]
exit(GraphFuzzCommand.executable(registry: registry).run(Array(CommandLine.arguments.dropFirst())))
