#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The result of replaying one corpus case.
package struct ReplayResult: Sendable, Equatable {
    package var file: String
    package var target: String
    /// True when production passed and the mutant (if any) failed with the recorded rule.
    package var passed: Bool
    /// The rule the case documents (nil for none).
    package var rule: String?
    /// What happened, in one line.
    package var message: String
    /// The generators changed since the case was recorded (it replayed from its trace all the same).
    package var drift: Bool
    /// The harness could not do a step of the replay (`HarnessFault`): no verdict (`passed` is
    /// false, and the message says so).
    package var harnessFault: HarnessFault?
}

/// Reading, writing and replaying corpus cases.
package enum Corpus {
    /// Reads and parses a corpus file.
    package static func read(_ file: String) throws(CorpusError) -> CorpusCase {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
            throw CorpusError(file: file, line: nil, message: "cannot read the file: \(FileIO.reason(of: error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CorpusError(file: file, line: nil, message: "not UTF-8 text")
        }
        return try CorpusCase(parsing: text, file: file)
    }

    /// Makes a corpus case from a search's shrunk failure (nil when it has no record), its target's generators
    /// fingerprinted `fingerprint`.
    package static func makeCase(_ found: FoundFailure, fingerprint: String) -> CorpusCase? {
        guard let record = found.counterexample else { return nil }
        return CorpusCase(target: found.plan.target, mutant: found.plan.mutant, rule: found.failure.rule, kind: found.failure.kind,
                          seed: found.plan.seed, caseIndex: found.caseIndex, fingerprint: fingerprint, choices: found.shrunk,
                          config: record.config, steps: record.steps, shrinkInterrupted: found.shrink.interrupted)
    }

    /// Replays a case: production must pass; the mutant, if any, must fail with the recorded rule.
    /// A trace that cannot be applied is a `CorpusError` naming the file, line and step.
    package static func replay(_ corpusCase: CorpusCase, file: String, targets: [Target]) throws(CorpusError) -> ReplayResult {
        try replay(corpusCase, file: file, targets: targets) { target, mutant in
            target.machine(mutant: mutant).replay(corpusCase.config, corpusCase.steps).map(\.outcome)
        }
    }

    /// Replays a case with `run`, which replays the case's trace against production code (`nil`)
    /// or a mutant and returns the outcome — in this process, or in a worker process for cases
    /// that crash or hang. Production must pass; the mutant, if any, must fail with the recorded
    /// rule and kind. A harness fault in either run gives no verdict (`ReplayResult.harnessFault`).
    package static func replay(_ corpusCase: CorpusCase, file: String, targets: [Target],
                              run: (Target, String?) -> Result<Outcome, TraceReplayError>) throws(CorpusError) -> ReplayResult {
        guard let target = targets.first(where: { $0.name == corpusCase.target }) else {
            let known = targets.map(\.name).joined(separator: ", ")
            throw CorpusError(file: file, line: lineOf("target:", corpusCase), message: "unknown target '\(corpusCase.target)' (known: \(known))")
        }
        if let mutant = corpusCase.mutant, target.mutant(named: mutant) == nil {
            throw CorpusError(file: file, line: lineOf("mutant:", corpusCase), message: "target '\(target.name)' has no mutant '\(mutant)'")
        }
        var harnessFault: HarnessFault?
        func outcome(_ mutant: String?) throws(CorpusError) -> Outcome {
            switch run(target, mutant) {
            case .success(.harnessFault(let fault)):
                harnessFault = harnessFault ?? fault
                return .rejected
            case .success(let outcome): return outcome
            case .failure(let error):
                throw CorpusError(file: file, line: corpusCase.line(ofStep: error.step), message: error.message)
            }
        }
        let drift = target.generatorFingerprint != corpusCase.fingerprint
        var problems: [String] = []
        if let failure = try outcome(nil).failure {
            problems.append("production code fails \(failure.rule) (\(failure.kind.rawValue)): \(failure.message)")
        }
        if let mutant = corpusCase.mutant {
            switch try outcome(mutant) {
            case .fail(let failure) where failure.rule == corpusCase.rule && failure.kind == corpusCase.kind: break
            case .fail(let failure): problems.append("mutant \(mutant) fails \(failure.rule) (\(failure.kind.rawValue)), expected \(corpusCase.rule) (\(corpusCase.kind.rawValue))")
            default: problems.append("mutant \(mutant) no longer fails \(corpusCase.rule)")
            }
        }
        if let harnessFault {
            return ReplayResult(file: file, target: target.name, passed: false, rule: corpusCase.rule,
                                message: "harness fault (no verdict on the code under test): \(harnessFault)", drift: drift,
                                harnessFault: harnessFault)
        }
        let message = problems.isEmpty
            ? (corpusCase.mutant.map { "production passes; mutant \($0) fails \(corpusCase.rule)" } ?? "production passes")
            : problems.joined(separator: "; ")
        return ReplayResult(file: file, target: target.name, passed: problems.isEmpty, rule: corpusCase.rule,
                            message: message, drift: drift)
    }

    private static func lineOf(_ prefix: String, _ corpusCase: CorpusCase) -> Int? {
        let lines = corpusCase.text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 }
    }
}
