import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
import Testing

/// `GraphFuzzTest.check(…, isolation: .process)`: the running test binary is started again as a worker, filtered
/// to the running test, naming the check; in that worker the same `check` call serves the worker protocol instead
/// of searching (`ProcessIsolation`). A trap or a hang ends the worker, not the test run: a fresh one replaces it,
/// and the case is reported (a `crash` or a `hang`) only when it happens again in a fresh worker.
enum CheckIsolation {
    /// The name of one check: what its worker serves (the target, mutant and steps per case; the call's place
    /// tells apart two checks of one test). The seed is not in it: it comes with each request.
    static func name(target: String, mutant: String?, maxSteps: Int, sourceLocation: SourceLocation) -> String {
        "\(target) \(mutant ?? "-") \(maxSteps) \(sourceLocation.fileID):\(sourceLocation.line):\(sourceLocation.column)"
    }

    /// The executor running the check's cases in a worker (the test binary started again for `test`); throws where
    /// processes cannot be started or there is no test to start again.
    static func executor(target: Target, check: String, test: Test?) throws(WorkerError) -> any CaseExecutor {
        guard let test else { throw WorkerError(.internalError, "isolation: .process needs a running Swift Testing test") }
        guard let executable = Bundle.main.executablePath else { throw WorkerError(.internalError, "isolation: .process cannot find the test binary") }
        return try ProcessIsolation.testExecutor(name: target.name, executable: executable, arguments: arguments(for: test), check: check) { note in
            FileHandle.standardError.write(Data("graph-fuzz: note: \(note)\n".utf8))
        }
    }

    /// Arguments that make the test binary run `test` alone with Swift Testing.
    static func arguments(for test: Test) -> [String] {
        let function = test.name.split(separator: "(").first.map(String.init) ?? test.name
        let suite = test.id.nameComponents.dropLast().last.map { "\($0)/" } ?? ""
        let pattern = NSRegularExpression.escapedPattern(for: "\(suite)\(function)(")
        return ["--testing-library", "swift-testing", "--filter", pattern]
    }
}
