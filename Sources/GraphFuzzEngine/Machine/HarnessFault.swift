#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Thrown by a machine's own code — `makeSystem`, an action's `perform` — when the harness, not
/// the code under test, could not do its part of a step: it could not create a scratch file or
/// folder, write a damaged copy of a file, read back what it wrote (a full or unwritable disk).
///
/// A harness fault is never a verdict on the code under test: the runner reports it as its own
/// outcome (`Outcome.harnessFault`), never as a `Failure` of a rule; it is not shrunk nor saved to
/// a corpus, and the search stops at it (`CaseHarnessFault`; the CLI exits 3). Throw it only for
/// the harness's own work: an error the system under test reports (a store refusing to open a
/// damaged file) is the system's behaviour, for the specification to judge.
public struct HarnessFault: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the harness could not do, and why (the underlying error).
    public var message: String
    /// Where in the harness it happened: `Module/File.swift:line` of the throw.
    public var place: String
    /// The 0-based step at which it happened; nil while making the system. Set by the runner.
    public var step: Int?
    /// The step's trace (`relaunch`, `set(key: 2, …)`); nil while making the system. Set by the runner.
    public var stepTrace: String?

    public init(_ message: String, fileID: String = #fileID, line: Int = #line) {
        self.message = message
        place = "\(fileID):\(line)"
    }

    /// A fault whose cause is `error`: the message ends with the error's reason, read from the
    /// underlying system error when there is one ("Not a directory (errno 20)").
    public init(_ message: String, underlying error: any Error, fileID: String = #fileID, line: Int = #line) {
        self.init("\(message): \(HarnessFault.reason(error))", fileID: fileID, line: line)
    }

    /// `error` in a few stable words: a Foundation error by its innermost POSIX error ("Not a directory
    /// (errno 20)"), anything else as it prints.
    public static func reason(_ error: any Error) -> String {
        var current = error
        while let cocoa = current as? CocoaError, let underlying = cocoa.underlying { current = underlying }
        guard let posix = current as? POSIXError else { return "\(current)" }
        return "\(FileIO.reason(posix.code.rawValue)) (errno \(posix.code.rawValue))"
    }

    /// The fault as the runner reports it, at `place` (already formatted) and `step`.
    public init(message: String, place: String, step: Int?, stepTrace: String?) {
        self.message = message
        self.place = place
        self.step = step
        self.stepTrace = stepTrace
    }

    /// Where in the case: "step 4 (relaunch)", or "making the system".
    public var whereInCase: String {
        guard let step else { return "making the system" }
        return "step \(step + 1)" + (stepTrace.map { " (\($0))" } ?? "")
    }

    public var description: String { "\(whereInCase): \(message) [at \(place)]" }
}

/// A search stopped by a harness fault: which case of which run, and the fault. Not a failure of
/// the code under test; the case's verdict is unknown until the harness can do its work.
@usableFromInline package struct CaseHarnessFault: Error, Equatable, Sendable, CustomStringConvertible {
    /// The target's name (nil until the target's search names it).
    package var target: String?
    package var mutant: String?
    package var seed: UInt64
    /// The case the fault happened in.
    package var caseIndex: Int
    package var fault: HarnessFault

    package init(target: String? = nil, mutant: String? = nil, seed: UInt64, caseIndex: Int, fault: HarnessFault) {
        self.target = target
        self.mutant = mutant
        self.seed = seed
        self.caseIndex = caseIndex
        self.fault = fault
    }

    @usableFromInline package var description: String {
        var subject = target.map { "target \($0)" } ?? "the machine"
        if let mutant { subject += " (mutant \(mutant))" }
        return "harness fault (not a failure of the code under test): \(subject), seed \(seed), case \(caseIndex), "
            + "\(fault.whereInCase): \(fault.message) [at \(fault.place)]; the search stopped, nothing was shrunk or saved"
    }
}
