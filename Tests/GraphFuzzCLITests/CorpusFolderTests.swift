import Foundation
import GraphFuzzEngine
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

    @Test("every corpus walk visits each real file once: symbolic-link loops, hard links and a folder given twice neither hang nor repeat a case")
    func linksAndLoops() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = folder + "/d/a"
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        let name = try #require(corpusFiles.first { $0.hasPrefix("queue-") })
        try FileManager.default.copyItem(atPath: Package.corpus + "/" + name, toPath: corpus + "/" + name)
        // Two links to the folder itself (each walk through one leads to the other: 2^depth paths), one to its
        // parent, a hard link and a symbolic link to the case, and a link to nothing.
        for (link, target) in [("s1", "."), ("s2", "."), ("up", ".."), ("soft.case", name), ("dangling.case", "nowhere")] {
            try FileManager.default.createSymbolicLink(atPath: corpus + "/" + link, withDestinationPath: target)
        }
        #expect(link(corpus + "/" + name, corpus + "/zz-hard.case") == 0)
        // `timeout`: a walk that loops fails the test instead of hanging it.
        func run(_ arguments: [String]) throws -> ProcessResult {
            try graphFuzz(["120", Package.executable] + arguments, in: folder, executable: "/usr/bin/timeout")
        }
        let replay = try run(["replay", "d/a", "d/a/s1", "d"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.split(separator: "\n").filter { $0.hasPrefix("pass  ") } == ["pass  d/a/\(name)  production passes; mutant queue-off-by-one fails Q1"],
                "\(replay.stdout)")
        #expect(replay.stdout.contains("1 passed, 0 failed, 0 malformed"), "\(replay.stdout)")
        let seeds = try run(["export-seeds", "--corpus", "d/a", "--out", "seeds"])
        #expect(seeds.status == 0 && seeds.stdout.contains("wrote 1 seeds for 1 targets"), "\(seeds.stdout)\(seeds.stderr)")
        let tests = try run(["export-tests", "--corpus", "d/a", "--out", "tests"])
        #expect(tests.status == 0 && tests.stdout.contains("1 tests in tests: 1 written, 0 unchanged, 0 removed"), "\(tests.stdout)\(tests.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/tests").count == 1)
        // Not a case: a pipe named like one is refused, naming it.
        #expect(mkfifo(corpus + "/fifo.case", 0o644) == 0)
        let pipe = try run(["replay", "d/a"])
        #expect(pipe.status == 2 && pipe.stderr.contains("d/a/fifo.case: not a corpus case: a pipe, not a regular file"), "\(pipe.stderr)")
    }

    @Test("one-letter relative folders work: --corpus q, export-tests --out o")
    func oneLetterFolders() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--in-process", "--corpus", "q"], in: folder)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/q").contains { $0.hasSuffix(".case") })
        let export = try graphFuzz(["export-tests", "--corpus", "q", "--out", "o"], in: folder)
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/o").count == 1)
    }

    @Test("runs started together on one new --corpus folder all succeed and all save: tried 50 times with 2 to 4 runs")
    func concurrentNewCorpus() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Seed 2's case 0 fails on the mutant: each run probes the new folder qr/sub, finds the failure and saves it.
        // The runs of a try wait for each other to be ready, then start at once.
        let tries = 50
        let script = """
            cd "$FOLDER"
            for try in $(seq 1 \(tries)); do
              mkdir "try$try"
              runs=$((2 + try % 3))
              for run in $(seq 1 $runs); do
                ( cd "try$try" && touch "ready$run" && while [ ! -e go ]; do :; done
                  "$GRAPH_FUZZ" --mutant queue-off-by-one --seed 2 --runs 1 --in-process --json --corpus qr/sub > "out$run" 2> "err$run"
                  echo $? > "status$run" ) &
              done
              while set -- "try$try"/ready*; [ $# -lt $runs ]; do :; done
              touch "try$try/go"
              wait
            done
            """
        let result = try shell(script, environment: ["FOLDER": folder])
        #expect(result.status == 0, "\(result.stderr)")
        var runs = 0
        for attempt in 1...tries {
            let place = "\(folder)/try\(attempt)"
            for run in 1...(2 + attempt % 3) {
                runs += 1
                let status = try String(contentsOfFile: "\(place)/status\(run)", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                let stderr = try String(contentsOfFile: "\(place)/err\(run)", encoding: .utf8)
                #expect(status == "1", "try \(attempt), run \(run): exit \(status): \(stderr)")
                // Nothing lost: the case each run reports saved is there.
                let output = try String(contentsOfFile: "\(place)/out\(run)", encoding: .utf8)
                let failure = try #require(output.split(separator: "\n").first { $0.contains(#""event":"failure""#) }, "try \(attempt), run \(run): \(stderr)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(failure.utf8)) as? [String: Any])
                let saved = try #require(object["corpusFile"] as? String, "try \(attempt), run \(run): not saved: \(stderr)")
                #expect((try? Corpus.read(place + "/" + saved)) != nil, "try \(attempt), run \(run): \(saved) is missing or unreadable")
            }
            #expect((try? CorpusIdentity.read(place + "/qr/sub")) != nil, "try \(attempt): the corpus has no identity")
        }
        #expect(runs == 151)
    }

    @Test("a corrupt corpus identity file is exit 2 before the search, naming it")
    func corruptIdentityFirst() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not an identity\n".write(toFile: folder + "/.graph-fuzz-corpus", atomically: true, encoding: .utf8)
        let result = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "2", "--runs", "1", "--in-process", "--corpus", folder])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--corpus: \(folder)/.graph-fuzz-corpus: cannot read the corpus identity: it does not hold one"),
                "\(result.stderr)")
        #expect(!result.stdout.contains("seed") && !result.stdout.contains("FAILURE"), "the search must not run: \(result.stdout)")
    }

    @Test("a case that cannot be saved after the check passed is exit 3 (infrastructure) naming the path and reason, not exit 1")
    func saveFailsAfterCheck() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["--mutant", "queue-off-by-one", "--seed", "2", "--runs", "1", "--in-process", "--json"]
        // Where the run saves its case: a folder of that name, holding a file, is in the way of the save alone.
        let first = try graphFuzz(arguments + ["--corpus", folder + "/first"])
        let event = try #require(first.stdout.split(separator: "\n").first { $0.contains(#""event":"failure""#) }, "\(first.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])
        let name = try #require((object["corpusFile"] as? String).map { ($0 as NSString).lastPathComponent })
        let corpus = folder + "/second"
        try FileManager.default.createDirectory(atPath: corpus + "/" + name, withIntermediateDirectories: true)
        try "x".write(toFile: corpus + "/" + name + "/in-the-way", atomically: true, encoding: .utf8)
        let result = try graphFuzz(arguments + ["--corpus", corpus])
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("infrastructure error: could not save the case of the failure reported next: \(corpus)/\(name)"), "\(result.stderr)")
        #expect(result.stderr.contains("Is a directory"), "\(result.stderr)")
        #expect(result.stderr.contains("1 of the failures found could not be saved to \(corpus)"), "\(result.stderr)")
        // The failure itself is still reported, unsaved.
        #expect(result.stdout.contains(#""event":"failure""#) && result.stdout.contains(#""corpusFile":null"#), "\(result.stdout)")
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
