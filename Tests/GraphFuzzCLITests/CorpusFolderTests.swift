import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

    @Test("the check really writes where the cases go: a path under /proc or a missing folder on a full disk is exit 2, nothing left",
          arguments: ["/proc/graph-fuzz-corpus", "/proc/graph-fuzz-corpus/sub", "FULL/missing/sub"])
    func probedCorpus(_ corpus: String) throws {
        var path = corpus, reason = "No such file or directory", full: FullFileSystem?
        if corpus.hasPrefix("FULL") {
            // A full tmpfs needs root and mount(8); elsewhere /sys, where no file can be created, stands in for it.
            full = FullFileSystem()
            if let full {
                path = corpus.replacingOccurrences(of: "FULL", with: full.mountPoint)
                reason = "No space left on device"
            } else {
                path = "/sys/graph-fuzz-corpus/sub"
            }
        }
        defer { full?.unmount() }
        let result = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--runs", "20", "--corpus", path])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        // The path named is the folder that could not be made or written; the reason is the system's.
        let named = full.map { $0.mountPoint + "/missing" } ?? "/graph-fuzz-corpus"
        #expect(result.stderr.contains("--corpus: ") && result.stderr.contains(named) && result.stderr.contains(reason), "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("FAILURE") && !result.stdout.contains("seed"), "the search must not run: \(result.stdout)")
        if let full {
            #expect(try FileManager.default.contentsOfDirectory(atPath: full.mountPoint) == ["filler"], "the check left folders behind")
        }
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
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".case") }
        #expect(files.count == 1, "\(files)")
    }
}

/// A tmpfs of 64 KiB filled to the last byte, mounted for a test (root only; nil where it cannot be mounted).
private struct FullFileSystem {
    let mountPoint: String

    init?() {
        let folder = temporaryFolder()
        guard getuid() == 0, (try? shell("mount -t tmpfs -o size=64k tmpfs '\(folder)' 2>/dev/null"))?.status == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            return nil
        }
        mountPoint = folder
        // Fill it: the first write that fails leaves the disk full.
        let filler = open(folder + "/filler", O_WRONLY | O_CREAT, 0o644)
        let block = [UInt8](repeating: 1, count: 4096)
        while filler >= 0, block.withUnsafeBytes({ write(filler, $0.baseAddress!, $0.count) }) > 0 {}
        close(filler)
    }

    func unmount() {
        _ = try? shell("umount '\(mountPoint)'")
        try? FileManager.default.removeItem(atPath: mountPoint)
    }
}
