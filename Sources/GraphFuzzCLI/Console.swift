import Foundation

/// Where the command writes: standard output, standard error, and whether stderr is a terminal.
/// Tests pass a console that collects the text.
public struct Console {
    public var out: (String) -> Void
    public var err: (String) -> Void
    public var isTerminal: Bool

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, isTerminal: Bool) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }

    /// The process's standard output and error.
    public static func standard() -> Console {
        Console(
            out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            err: { text in FileHandle.standardError.write(Data(text.utf8)) },
            isTerminal: isatty(STDERR_FILENO) == 1)
    }
}
