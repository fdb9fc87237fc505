import Foundation

/// Where the command writes: standard output, standard error, and whether stderr is a terminal.
/// Tests pass a console that collects the text.
package struct Console {
    package var out: (String) -> Void
    package var err: (String) -> Void
    package var isTerminal: Bool

    package init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, isTerminal: Bool) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }

    /// The process's standard output and error.
    package static func standard() -> Console {
        Console(
            out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            err: { text in FileHandle.standardError.write(Data(text.utf8)) },
            isTerminal: isatty(STDERR_FILENO) == 1)
    }
}
