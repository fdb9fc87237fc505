/// Why a run ended without a verdict on the code under test: never a failure of it. The command line prints it
/// and exits with `exitCode`; a check records it as an issue.
package enum RunError: Error, Equatable, CustomStringConvertible {
    /// A case's harness could not do its work (the machine's own I/O failed): the search stopped at that case.
    case harnessFault(CaseHarnessFault)
    /// No scratch folder could be made for the cases' files (a full or unwritable temporary folder).
    case scratchFolder(ScratchFolderError)
    /// The machine the run is on failed it: workers keep dying without a reproducing case (the OOM killer, a CI
    /// runner's limits).
    case infrastructure(String)
    /// Something the user can fix, as the message says (too few open files): exit 2.
    case usage(String)
    /// A fault of graph-fuzz itself: a worker that broke the protocol, a trap in the harness's own code.
    case internalError(String)

    /// 2 for what the user can fix, 3 for the rest.
    package var exitCode: Int32 {
        if case .usage = self { return 2 }
        return 3
    }

    package var description: String {
        switch self {
        case .harnessFault(let fault): return fault.description
        case .scratchFolder(let error): return error.description
        case .infrastructure(let message): return "infrastructure error: \(message)"
        case .usage(let message): return message
        case .internalError(let message): return "internal error: \(message)"
        }
    }
}
