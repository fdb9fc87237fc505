/// A `graph-fuzz` command: a type and one line in `GraphFuzzCommand.commands`. It reads its flags (`Flags`: the
/// errors name the flag and value) and runs, printing through its context's console; what it runs is the
/// engine's.
protocol Command {
    /// The word that selects it ("replay"); empty for the run command, which runs when no command is named.
    static var name: String { get }
    /// Its synopsis for `--help`, after `graph-fuzz ` (one line; the run command's wraps).
    static var usage: String { get }
    /// What it does, for `--help` (the run command: its options).
    static var help: String { get }
    /// Whether `--help` lists it (false for the hidden `worker`).
    static var listed: Bool { get }
    /// Put before its flags in error messages ("coverage " gives "coverage --seed: …").
    static var flagPrefix: String { get }

    /// Reads the command's flags (and operands) from `flags`, taking what it knows.
    init(_ flags: inout Flags) throws(UsageError)

    /// Runs the command: its exit code (0 success, 1 a failure found, 2 bad usage or input, 3 an internal or
    /// infrastructure error). A `UsageError` thrown here is bad usage too (exit 2).
    func run(_ context: CommandContext) throws(UsageError) -> Int32
}

extension Command {
    static var listed: Bool { true }
    static var flagPrefix: String { name.isEmpty ? "" : name + " " }
}

/// What a command runs with.
struct CommandContext {
    var registry: Registry
    var console: Console
    /// The seed used when `--seed` is not given.
    var freshSeed: () -> UInt64
    /// The executable worker processes run (`graph-fuzz worker`); nil runs every case in this process.
    var workerExecutable: String?
    /// What `workerExecutable` runs as a worker when it is this process's own executable (`WorkerLaunch.entry`).
    var workerEntry: (@Sendable ([String]) -> Int32)? = nil
}
