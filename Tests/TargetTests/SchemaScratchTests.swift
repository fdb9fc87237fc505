import Foundation
import GraphFuzzEngine
import GraphFuzzTesting
import GraphStore
import GraphStoreRules
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A note of the user's schema.
final class ScratchNote: PersistentModel {
    @Attribute var text: String? = nil
    required init() {}
}

/// A user's schema machine with one action of the app's: on an on-disk (SQLite) store it notes the store file's path
/// in the file `GRAPHFUZZ_STORE_LOG` names, then crashes the process (`crashing`) or makes a note it leaves outside
/// every context, where the rule (N1) says the note is inserted into the main context. In memory it does what the
/// rule says.
private func noteMachine(crashing: Bool) throws -> SchemaMachine {
    let log = ProcessInfo.processInfo.environment["GRAPHFUZZ_STORE_LOG"]
    return try SchemaMachine(for: ScratchNote.self, name: "notes", actions: [
        AppAction("touchStore", rule: "N1", weight: 50, arguments: { _ in () },
                  effect: { _, graph in
                      let note = graph.create(ScratchNote.self)
                      graph.insert(note, into: .main)
                  },
                  perform: { _, app -> ScratchNote in
                      let note = ScratchNote()
                      guard let path = app.container.path else {
                          app[.main].insert(note)
                          return note
                      }
                      if let log {
                          let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                          _ = (path + "\n").withCString { write(descriptor, $0, strlen($0)) }
                          close(descriptor)
                      }
                      if crashing { fatalError("planted: the app crashes on an on-disk store") }
                      return note
                  }),
    ])
}

/// The scenario the test below runs in a child test process: enabled only there.
@Suite("SchemaScratchScenario", .enabled(if: ProcessInfo.processInfo.environment["GRAPHFUZZ_SCHEMA_SCRATCH"] == "1"))
struct SchemaScratchScenario {
    @Test("a schema machine whose action crashes on an on-disk store, checked with process isolation")
    func crashInWorkers() throws {
        GraphFuzzTest.check(try noteMachine(crashing: true), name: "notes", seed: 1, runs: 40, maxSteps: 1, isolation: .process)
    }

    @Test("the same action failing without a crash, checked in process")
    func failInProcess() throws {
        GraphFuzzTest.check(try noteMachine(crashing: false), name: "notes", seed: 1, runs: 40, maxSteps: 1)
    }
}

@Suite("a user's schema machine keeps its store files in the scratch folder of the process running its cases")
struct SchemaScratchTests {
    @Test("after a check whose action crashed its workers, or failed in process, no store file of it is left anywhere")
    func nothingLeftBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-fuzz-schema-scratch-\(UUID().uuidString)").path
        let scratchRoot = folder + "/tmp", log = folder + "/stores", output = folder + "/output"
        try FileManager.default.createDirectory(atPath: scratchRoot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let binary = try #require(Bundle.main.executableURL)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--testing-library", "swift-testing", "--filter", "SchemaScratchScenario"]
        // The scratch root is the child's own TMPDIR: the check's and its workers' scratch folders are made there.
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["GRAPHFUZZ_SCHEMA_SCRATCH": "1", "GRAPHFUZZ_STORE_LOG": log, "TMPDIR": scratchRoot]) { $1 }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(text)")
        #expect(text.contains("FAILURE notes — rule crash, crash"), "\(text)")
        #expect(text.contains("FAILURE notes — rule N1, mismatch"), "\(text)")
        let stores = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        // Stores met in workers (the crashes) and in the check's own process (the mismatch)…
        #expect(stores.contains { $0.contains("/graph-fuzz-worker-") }, "\(stores)")
        #expect(stores.contains { $0.contains("/graph-fuzz-check-") }, "\(stores)")
        // …were all in a scratch folder under the scratch root (none in /dev/shm itself), and none is left.
        for store in stores {
            #expect(store.hasPrefix(scratchRoot + "/"), "\(store)")
            for suffix in ["", "-wal", "-shm", "-journal"] {
                #expect(!FileManager.default.fileExists(atPath: store + suffix), "left behind: \(store + suffix)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratchRoot).isEmpty, "left in the scratch root")
    }
}
