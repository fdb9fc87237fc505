import ExampleTargets
import Foundation
import GraphFuzzEngine

extension GraphFuzzCommand {
    /// The command as the `graph-fuzz` executable runs it: worker processes run this same
    /// executable, and the test-only `planted` and `planted-harness` targets join the registry when the environment
    /// sets `GRAPH_FUZZ_PLANTED_TARGETS=1` (users never see it otherwise). With
    /// `GRAPH_FUZZ_EXIT_WITH_PARENT=1` (set by the tests that start it) it ends when its parent does.
    package static func executable(environment: [String: String] = ProcessInfo.processInfo.environment) -> GraphFuzzCommand {
        var registry = Registry.standard
        if environment["GRAPH_FUZZ_PLANTED_TARGETS"] == "1" { registry.targets += [.planted, .plantedHarnessFault] }
        Interruption.unblock()
        // A closed pipe under standard output is a failed write (`Console`): the run then stops its
        // workers and removes its temporary files, which dying of SIGPIPE would not. (Workers ignore it too.)
        signal(SIGPIPE, SIG_IGN)
        if environment["GRAPH_FUZZ_EXIT_WITH_PARENT"] == "1" {
            // Orphaned (its parent, say `swift test`, is gone): stop as on SIGTERM — workers
            // stopped, temporary files removed — and end.
            ParentWatch.start { Interruption.stopOnce() }
        }
        return GraphFuzzCommand(registry: registry, workerExecutable: currentExecutable())
    }

    /// The absolute path of the running executable.
    static func currentExecutable() -> String {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        let path = CommandLine.arguments[0]
        if path.hasPrefix("/") { return path }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
