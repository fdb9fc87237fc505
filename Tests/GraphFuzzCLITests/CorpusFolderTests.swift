import Foundation
import Testing

@Suite("corpus folders: checked before the search, replayed recursively, deduplicated (built executable)")
struct CorpusFolderTests {
    @Test("a --corpus that cannot take cases is exit 2 before the search, naming the path and the system's reason",
          arguments: [("FILE", "Not a directory"), ("", "No such file or directory"), ("/proc/self", "No such file or directory"),
                      ("FILE/sub", "Not a directory")])
    func unusableCorpus(_ corpus: String, _ reason: String) throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/a-file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let path = corpus.replacingOccurrences(of: "FILE", with: file)
        let result = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--runs", "20", "--corpus", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--corpus: ") && result.stderr.contains(reason), "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("FAILURE"), "the search must not run")
    }

    @Test("replay reads CRLF files and cases in subfolders; a folder holding no case is exit 2")
    func replayFolders() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let queueCase = try #require(corpusFiles.first { $0.hasPrefix("queue-") })
        let text = try String(contentsOfFile: Package.corpus + "/" + queueCase, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/nested/deeper", withIntermediateDirectories: true)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: folder + "/nested/deeper/crlf.case", atomically: true, encoding: .utf8)
        let result = try graphFuzz(["replay", folder])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("pass  \(folder)/nested/deeper/crlf.case"))
        #expect(result.stdout.contains("1 passed, 0 failed, 0 malformed"))

        try FileManager.default.createDirectory(atPath: folder + "/empty/sub", withIntermediateDirectories: true)
        let empty = try graphFuzz(["replay", folder + "/empty"])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("\(folder)/empty: no .case file in this folder or its subfolders"), "stderr: \(empty.stderr)")
        let typo = try graphFuzz(["replay", folder + "/no-such-folder"])
        #expect(typo.status == 2)
    }

    @Test("the same shrunk trace found by other seeds is saved once")
    func dedupeByTrace() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for seed in ["1", "2", "3"] {
            let result = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", seed, "--in-process", "--corpus", folder])
            #expect(result.status == 1)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1, "\(files)")
    }
}
