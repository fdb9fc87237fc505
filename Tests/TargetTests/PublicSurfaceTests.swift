import Foundation
import Testing

/// The library products as an app sees them: code outside this package type-checks against the built
/// modules with `swiftc` (no `-package-name`, so `package` declarations are invisible, as for an app
/// that depends on the products). The shipped configuration compiles; every faulty strategy (a
/// mutant's selection point) does not.
@Suite("public surface of the library products")
struct PublicSurfaceTests {
    static let imports = "import GraphStore\nimport BooksTracker\nimport PersistentCache\nimport GlassSync\n"

    /// What an app writes: the shipped configuration, and the unknown-evidence parameters.
    static let app = """
        let behavior = StoreBehavior(newModelLink: .trap, temporaryIDAfterSave: .resolves, registeredAfterForeignDelete: .stale)
        _ = ModelConfiguration(trapPolicy: .record, behavior: behavior)
        _ = LibraryPolicy(configuration: .cloudKit)
        _ = DTOMapper()
        _ = SyncWorld(deviceCount: 2, granularity: .record)
        """

    /// Each selects a faulty strategy the way a mutant does; none may compile outside the package.
    static let faulty: [String] = [
        "var behavior = StoreBehavior()\nbehavior.failedSave = .partial",
        "_ = StoreBehavior(identifierTiming: .atInsert)",
        "var behavior = StoreBehavior()\nbehavior.deleteRuleTiming = .atDelete",
        "var behavior = StoreBehavior()\nbehavior.inverseMaintenance = .none",
        "var policy = LibraryPolicy()\npolicy.saveValidation = .skip",
        "var policy = LibraryPolicy()\npolicy.entryCreation = .relateBeforeInsert",
        "_ = LibraryPolicy(userEntrySelection: .first)",
        "_ = DTOMapper(strategy: MapperStrategy(cache: .objects))",
        "_ = CacheStrategy(writeMode: .inPlace)",
        "_ = SyncWorld(strategy: SyncStrategy(storage: .blobsOnly))",
    ]

    /// Type-checks `body` against the built modules as code outside the package: (exit status, diagnostics).
    static func typecheck(_ body: String) throws -> (status: Int32, diagnostics: String) {
        let modules = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("Modules")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("App.swift")
        try (imports + body + "\n").write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // GraphStore imports the CSQLite system module; an app finds its module map the same way.
        let csqlite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/CSQLite").standardized
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "-I", csqlite.path, file.path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("the shipped configuration compiles outside the package (the check itself works)")
    func appCompiles() throws {
        let result = try Self.typecheck(Self.app)
        #expect(result.status == 0, "\(result.diagnostics)")
    }

    @Test("no faulty strategy is reachable outside the package", arguments: faulty)
    func faultyStrategyIsUnreachable(_ body: String) throws {
        let result = try Self.typecheck(body)
        #expect(result.status != 0, "compiled outside the package: \(body)")
        // The refusal is about access, not a broken snippet.
        let aboutAccess = ["'package' protection level", "cannot find", "extra argument", "has no member", "incorrect argument label"]
        #expect(aboutAccess.contains { result.diagnostics.contains($0) }, "\(result.diagnostics)")
    }
}
