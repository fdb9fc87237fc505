#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Corpus {
    /// Checks, before any work, that cases can be saved in `folder`: it can be written (`FileIO.checkWritableFolder`)
    /// and its identity file, if it has one, holds an identity (`CorpusIdentity.read`). An error names the folder
    /// or the identity file and the reason, so a corrupt `.graph-fuzz-corpus` shows before the search, not at the
    /// first save after it.
    package static func checkSavable(_ folder: String) throws(FileError) {
        try FileIO.checkWritableFolder(folder)
        try CorpusIdentity.read(folder)
    }

    /// Writes `corpusCase` into `folder` atomically (temporary file, then rename), never overwriting a different
    /// case, and gives the folder its identity (`CorpusIdentity`) if it has none; returns the path written, or of
    /// the file already holding the same trace (a case found again by another seed is not saved twice). One
    /// failure (the same target, mutant, rule, kind, seed and case) keeps one file: a case whose shrink was
    /// interrupted is not saved beside a complete one of the same failure, and is replaced by the next case of
    /// that failure saved. An error names the file and the system's reason.
    package static func write(_ corpusCase: CorpusCase, to folder: String) throws(FileError) -> String {
        try FileIO.createFolder(folder)
        try CorpusIdentity.ensure(folder)
        let earlier = saved(sameFailureAs: corpusCase, in: folder)
        if corpusCase.shrinkInterrupted, let complete = earlier.first(where: { !$0.corpusCase.shrinkInterrupted }) {
            return complete.path
        }
        let path = try writeOnce(corpusCase, to: folder)
        for replaced in earlier where replaced.corpusCase.shrinkInterrupted && replaced.path != path {
            try FileIO.remove(replaced.path)
        }
        return path
    }

    /// Writes `corpusCase` under its own name (or the next free `-N` one), unless a file holds its trace already; a
    /// file holding its trace from an interrupted shrink is overwritten by the complete case.
    private static func writeOnce(_ corpusCase: CorpusCase, to folder: String) throws(FileError) -> String {
        let text = corpusCase.text
        let base = FileIO.deletingExtension(of: corpusCase.fileName)
        var attempt = 1
        while true {
            let name = attempt == 1 ? "\(base).case" : "\(base)-\(attempt).case"
            let path = FileIO.path(folder, appending: name)
            if let existing = FileManager.default.contents(atPath: path) {
                let existingText = String(data: existing, encoding: .utf8)
                let parsed = existingText.flatMap { try? CorpusCase(parsing: $0, file: path) }
                if existingText == text { return path }
                if let parsed, parsed.sameTrace(as: corpusCase) {
                    guard parsed.shrinkInterrupted && !corpusCase.shrinkInterrupted else { return path }
                    try FileIO.writeAtomically(text, to: path)
                    return path
                }
                attempt += 1
                continue
            }
            try FileIO.writeAtomically(text, to: path)
            return path
        }
    }

    /// The readable cases directly in `folder` that record the same failure as `corpusCase`, by path.
    private static func saved(sameFailureAs corpusCase: CorpusCase, in folder: String) -> [(path: String, corpusCase: CorpusCase)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().filter { $0.hasSuffix(".case") && !$0.hasPrefix(".") }.compactMap { name in
            let path = FileIO.path(folder, appending: name)
            guard let saved = try? read(path), saved.sameFailure(as: corpusCase) else { return nil }
            return (path, saved)
        }
    }
}
