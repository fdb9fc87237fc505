import Foundation
import GraphFuzzEngine

extension GraphFuzzCommand {
    /// The command as an executable runs it, with `registry`'s targets: worker processes run this same executable.
    /// With `GRAPH_FUZZ_EXIT_WITH_PARENT=1` (set by the tests that start it) it ends when its parent does.
    package static func executable(registry: Registry = .standard,
                                   environment: [String: String] = ProcessInfo.processInfo.environment) -> GraphFuzzCommand {
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
