import Foundation
import GraphFuzzCLI
import TestTargets

// `graph-fuzz` with the test-only targets registered beside the shipped ones: `planted` (a real trap and a real
// infinite loop), `planted-harness` (a harness that cannot write its scratch file), `planted-slow` (steps that
// sleep) and `planted-divider` (a wrong answer whose shrink meets a trap). The tests that must start a real executable that crashes, hangs, faults or takes known time start this
// one; `graph-fuzz` itself never holds these targets.
var registry = Registry.standard
registry.targets += [.planted, .plantedHarnessFault, .plantedSlow, .plantedDivider]
exit(GraphFuzzCommand.executable(registry: registry).run(Array(CommandLine.arguments.dropFirst())))
