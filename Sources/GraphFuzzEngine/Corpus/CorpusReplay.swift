import Foundation

/// The result of replaying one corpus case.
public struct ReplayResult: Sendable, Equatable {
    public var file: String
    public var target: String
    /// True when production passed and the mutant (if any) failed with the recorded rule.
    public var passed: Bool
    /// The rule the case documents (nil for none).
    public var rule: String?
    /// What happened, in one line.
    public var message: String
    /// The generators changed since the case was recorded (it replayed from its trace all the same).
    public var drift: Bool
}

/// Reading, writing and replaying corpus cases.
public enum Corpus {
    /// The `.case` files under each path (a file or a folder), sorted by path.
    public static func files(in paths: [String]) throws(CorpusError) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CorpusError(file: path, line: nil, message: "no such file or folder")
            }
            if isDirectory.boolValue {
                let names = (try? manager.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { $0.hasSuffix(".case") }.sorted().map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Reads and parses a corpus file.
    public static func read(_ file: String) throws(CorpusError) -> CorpusCase {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CorpusError(file: file, line: nil, message: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CorpusError(file: file, line: nil, message: "not UTF-8 text")
        }
        return try CorpusCase(parsing: text, file: file)
    }

    /// Writes `corpusCase` into `folder` atomically (temporary file, then rename), never
    /// overwriting a different case; returns the path written (or already holding the same case).
    public static func write(_ corpusCase: CorpusCase, to folder: String) throws(CorpusError) -> String {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CorpusError(file: folder, line: nil, message: "cannot create the corpus folder: \(error.localizedDescription)")
        }
        let text = corpusCase.text
        let base = (corpusCase.fileName as NSString).deletingPathExtension
        var attempt = 1
        while true {
            let name = attempt == 1 ? "\(base).case" : "\(base)-\(attempt).case"
            let path = (folder as NSString).appendingPathComponent(name)
            if let existing = manager.contents(atPath: path) {
                if String(data: existing, encoding: .utf8) == text { return path }
                attempt += 1
                continue
            }
            let temporary = (folder as NSString).appendingPathComponent(".\(name).\(ProcessInfo.processInfo.processIdentifier).tmp")
            guard manager.createFile(atPath: temporary, contents: Data(text.utf8)) else {
                throw CorpusError(file: temporary, line: nil, message: "cannot write the temporary file")
            }
            guard rename(temporary, path) == 0 else {
                try? manager.removeItem(atPath: temporary)
                throw CorpusError(file: path, line: nil, message: "cannot rename the temporary file into place (errno \(errno))")
            }
            return path
        }
    }

    /// Makes a corpus case from a search's shrunk failure.
    public static func makeCase(_ result: TargetSearchResult, target: Target) -> CorpusCase? {
        guard let found = result.failure, let record = result.counterexample else { return nil }
        return CorpusCase(target: result.target, mutant: result.mutant, rule: found.failure.rule, kind: found.failure.kind,
                          seed: result.options.seed, caseIndex: found.caseIndex,
                          fingerprint: target.generatorFingerprint, choices: found.shrunk,
                          config: record.config, steps: record.steps)
    }

    /// Replays a case: production must pass; the mutant, if any, must fail with the recorded rule.
    /// A trace that cannot be applied is a `CorpusError` naming the file, line and step.
    public static func replay(_ corpusCase: CorpusCase, file: String, targets: [Target]) throws(CorpusError) -> ReplayResult {
        try replay(corpusCase, file: file, targets: targets) { target, mutant in
            target.machine(mutant: mutant).replay(corpusCase.config, corpusCase.steps).map(\.outcome)
        }
    }

    /// Replays a case with `run`, which replays the case's trace against production code (`nil`)
    /// or a mutant and returns the outcome — in this process, or in a worker process for cases
    /// that crash or hang. Production must pass; the mutant, if any, must fail with the recorded
    /// rule and kind.
    public static func replay(_ corpusCase: CorpusCase, file: String, targets: [Target],
                              run: (Target, String?) -> Result<Outcome, TraceReplayError>) throws(CorpusError) -> ReplayResult {
        guard let target = targets.first(where: { $0.name == corpusCase.target }) else {
            let known = targets.map(\.name).joined(separator: ", ")
            throw CorpusError(file: file, line: lineOf("target:", corpusCase), message: "unknown target '\(corpusCase.target)' (known: \(known))")
        }
        if let mutant = corpusCase.mutant, target.mutant(named: mutant) == nil {
            throw CorpusError(file: file, line: lineOf("mutant:", corpusCase), message: "target '\(target.name)' has no mutant '\(mutant)'")
        }
        func outcome(_ mutant: String?) throws(CorpusError) -> Outcome {
            switch run(target, mutant) {
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
