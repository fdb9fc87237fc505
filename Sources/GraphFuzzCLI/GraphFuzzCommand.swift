#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GraphFuzzEngine
import GraphFuzzIsolation

/// The `graph-fuzz` command line: finds the command the arguments name, lets it read its flags, runs it, and
/// returns the exit code (0 no failure, 1 failure, 2 bad usage or input, 3 internal error, among them a write to
/// standard output or error that failed).
package struct GraphFuzzCommand {
    package static let version = "0.1.0"

    /// The commands, in the order `--help` lists them: a new command is a type and a line here.
    static var commands: [any Command.Type] {
        [
            RunCommand.self,
            ReplayCommand.self,
            ListCommand.self,
            ExportTestsCommand.self,
            ImportCrashCommand.self,
            ExportSeedsCommand.self,
            BenchCommand.self,
            CoverageCommand.self,
            WorkerCommand.self,
        ]
    }

    package var registry: Registry
    package var console: Console
    /// The seed used when --seed is not given.
    package var freshSeed: () -> UInt64
    /// The `graph-fuzz` executable that runs worker processes (`graph-fuzz worker`); nil runs
    /// every case in this process, as `--in-process` does.
    package var workerExecutable: String?
    /// What `workerExecutable` runs as a worker, when it is this process's own executable (`executable(registry:)`):
    /// a worker may then be this process forked (`WorkerLaunch.entry`).
    var workerEntry: (@Sendable ([String]) -> Int32)?

    package init(registry: Registry = .standard, console: Console = .standard(),
                 freshSeed: @escaping () -> UInt64 = { UInt64.random(in: 1...UInt64(UInt32.max)) },
                 workerExecutable: String? = nil) {
        self.registry = registry
        self.console = console
        self.freshSeed = freshSeed
        self.workerExecutable = workerExecutable
    }

    /// The command as an executable runs it, with `registry`'s targets: worker processes run this same executable.
    /// With `GRAPH_FUZZ_EXIT_WITH_PARENT=1` (set by the tests that start it) it ends when its parent does. (The one
    /// variable is read alone: `ProcessInfo.environment` builds a dictionary of them all, at every start.)
    package static func executable(registry: Registry = .standard) -> GraphFuzzCommand {
        Interruption.unblock()
        // A closed pipe under standard output is a failed write (`Console`): the run then stops its
        // workers and removes its temporary files, which dying of SIGPIPE would not. (Workers ignore it too.)
        signal(SIGPIPE, SIG_IGN)
        if let exitWithParent = getenv("GRAPH_FUZZ_EXIT_WITH_PARENT"), String(cString: exitWithParent) == "1" {
            // Orphaned (its parent, say `swift test`, is gone): stop as on SIGTERM — workers
            // stopped, temporary files removed — and end.
            ParentWatch.start { Interruption.stopOnce() }
        }
        var command = GraphFuzzCommand(registry: registry, workerExecutable: currentExecutable())
        // The executable started with a worker's arguments runs this: `graph-fuzz worker …` as its `main` would.
        command.workerEntry = { arguments in GraphFuzzCommand(registry: registry).run(arguments) }
        return command
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

    package func run(_ arguments: [String]) -> Int32 {
        let status = execute(arguments)
        // A full disk or a closed pipe under standard output: the command stopped (a run stops its
        // workers and removes its temporary files); its output is incomplete, so it is never a pass.
        // A closed pipe is the reader's choice (`| head`): no message, 141 as for a death by SIGPIPE.
        if console.readerGone() { return 128 + SIGPIPE }
        if let failure = console.writeFailure() {
            console.err("graph-fuzz: \(failure)\n")
            return 3
        }
        return status
    }

    private func execute(_ arguments: [String]) -> Int32 {
        do throws(UsageError) {
            if let text = try Help.requested(arguments, commands: Self.commands, version: Self.version) {
                console.out(text)
                return 0
            }
            let named = Self.commands.first { !$0.name.isEmpty && $0.name == arguments.first }
            let type = named ?? RunCommand.self
            var flags = Flags(named == nil ? arguments[...] : arguments.dropFirst(), prefix: type.flagPrefix)
            let command = try type.init(&flags)
            if let leftover = flags.leftover { throw Help.unknown(leftover, command: type, commands: Self.commands) }
            let context = CommandContext(registry: registry, console: console, freshSeed: freshSeed, workerExecutable: workerExecutable,
                                         workerEntry: workerEntry)
            return try command.run(context)
        } catch {
            console.err("graph-fuzz: \(error.message)\n")
            return 2
        }
    }
}
