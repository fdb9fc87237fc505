/// `graph-fuzz --help`, assembled from the commands' own usage and help, and the messages for arguments no
/// command takes.
enum Help {
    /// The text `--help` (the whole help), `COMMAND --help` (alone after the command: that command's help) or
    /// `--version` asks for; nil when the arguments ask for neither. `--help` and `--version` take nothing else.
    static func requested(_ arguments: [String], commands: [any Command.Type], version: String) throws(UsageError) -> String? {
        if arguments.count == 2, let first = arguments.first, ["--help", "-h"].contains(arguments[1]),
           let command = commands.first(where: { $0.listed && !$0.name.isEmpty && $0.name == first }) {
            return text(of: command)
        }
        guard let first = arguments.first, ["--help", "-h", "--version"].contains(first) else { return nil }
        guard arguments.count == 1 else {
            throw UsageError("\(first) takes no other arguments (got '\(arguments.dropFirst().joined(separator: " "))')")
        }
        return first == "--version" ? "graph-fuzz \(version)\n" : text(commands)
    }

    /// The error for an argument `command` did not take.
    static func unknown(_ argument: String, command: any Command.Type, commands: [any Command.Type]) -> UsageError {
        if ["--help", "-h", "--version"].contains(argument) {
            return UsageError("\(argument) takes no other arguments (use it alone: graph-fuzz \(argument))")
        }
        guard command.name.isEmpty else {
            return UsageError("\(command.name): unknown argument '\(argument)' (usage: graph-fuzz \(command.usage))")
        }
        if argument.hasPrefix("-") { return UsageError("unknown flag '\(argument)' (see graph-fuzz --help)") }
        let names = commands.filter { $0.listed && !$0.name.isEmpty }.map { $0.name }.joined(separator: ", ")
        return UsageError("unknown command '\(argument)' (commands: \(names); see graph-fuzz --help)")
    }

    /// One command's help: what it does and its usage, and where the rest is.
    static func text(of command: any Command.Type) -> String {
        let usage = command.usage.split(separator: "\n").joined(separator: "\n             ")
        return "graph-fuzz \(command.name): \(command.help)\n\nUSAGE\n  graph-fuzz \(usage)\n\n"
            + "graph-fuzz --help: every command, the run's options, the JSON events, what a failure is, the exit codes\n"
    }

    /// The whole help: what graph-fuzz is, every listed command's usage and help, the run command's options, the
    /// JSON events, what a failure is, the exit codes.
    static func text(_ commands: [any Command.Type]) -> String {
        let column = 40
        var usage: [String] = []
        var options = ""
        for command in commands where command.listed {
            let lines = command.usage.split(separator: "\n").map(String.init)
            usage.append("  graph-fuzz " + (lines.first ?? ""))
            usage += lines.dropFirst().map { "             " + $0 }
            guard !command.name.isEmpty else {
                options = command.help
                continue
            }
            var help = command.help.split(separator: "\n").map(String.init)
            if let last = usage.last, last.count < column - 1, let first = help.first {
                usage[usage.count - 1] = last + String(repeating: " ", count: column - last.count) + first
                help.removeFirst()
            }
            usage += help.map { String(repeating: " ", count: column) + $0 }
        }
        usage.append("  graph-fuzz [COMMAND] --help | graph-fuzz --version")
        return header + "\n\nUSAGE\n" + usage.joined(separator: "\n") + "\n\nOPTIONS\n" + options + "\n\n" + sections + "\n"
    }

    private static let header = """
        graph-fuzz — finds the bugs that crash SwiftData and Core Data apps by checking an executable
        specification of object-graph rules against production code with shrinking random tests.
        """

    private static let sections = """
        JSON LINES (--json)
          found    event target mutant seed case rule kind step message secondsToFound reproduce
                   (the next failure, before its shrink: once every case below it has run; its failure follows)
          failure  event target mutant seed case rule kind message steps originalSteps shrinkAttempts
                   shrinkInterrupted secondsToFailure counterexample swift corpusFile
          coverage event target rule decided cases   (one per rule, before the summary: a target's last event)
          summary  event target mutant seed cases steps seconds stepsPerSecond failures
          replay   event file target outcome rule
          list     {event: target, target} {event: mutant, target, mutant, rule} {event: rule, rule, statement}

        WHAT IS A FAILURE
          A failure of the code under test is a rule of the specification that broke, a trap the code
          raised that a fresh worker reproduces, or a step that never finishes. A worker killed from
          outside (SIGKILL, the OOM killer, CI limits), a slow case that keeps finishing steps, or a
          fault of graph-fuzz itself is never one: it is a note, or exit 3.

        EXIT CODES
          0 no failure   1 a failure was found (or a replayed case failed)
          2 bad usage or bad input (a flag, a file and line, a corpus folder, too few open files)
          3 internal or infrastructure error (workers keep dying without a reproducing case), a
            harness fault (a machine's own I/O failed, e.g. a full /tmp: target, seed, case, step named),
            a found case that could not be saved (path and reason named), or standard output or
            error that cannot be written (a full disk)
          130 / 143 interrupted by SIGINT / SIGTERM (workers stopped, temporary files removed, summary
            so far printed)
          141 standard output's reader went away (| head): stopped quietly, as SIGPIPE would
        """
}
