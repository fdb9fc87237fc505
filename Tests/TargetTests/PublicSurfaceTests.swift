import CacheTarget
import ExampleTargets
import Foundation
import GraphTarget
import MapperTarget
import SyncTarget
import Testing

/// The library products as an app sees them: code outside this package type-checks against the built
/// modules with `swiftc`, without the package's `-package-name`, so `package` declarations are invisible, as
/// for an app that depends on the products (it even imports the FaultPoints module, the worst case). The
/// shipped configuration compiles; every fault a registered mutant selects, written the way a target selects
/// it, does not — and the same snippet compiles with the package's name, so it fails for its access alone.
@Suite("public surface of the library products")
struct PublicSurfaceTests {
    static let imports = "import GraphStore\nimport BooksTracker\nimport PersistentCache\nimport GlassSync\nimport ExampleTargets\nimport FaultPoints\n"

    /// What an app writes: the shipped configuration, and the unknown-evidence parameters.
    static let app = """
        let behavior = StoreBehavior(newModelLink: .trap, temporaryIDAfterSave: .resolves, registeredAfterForeignDelete: .stale)
        _ = ModelConfiguration(trapPolicy: .record, behavior: behavior)
        _ = LibraryPolicy(configuration: .cloudKit)
        _ = DTOMapper()
        _ = SyncWorld(deviceCount: 2, granularity: .record)
        var queue = BoundedQueue(capacity: 2)
        _ = queue.push(1)
        """

    /// Every fault of every registered mutant, selected the way its target does (derived from the registration
    /// tables, so a new mutant is checked without editing this test), and the mechanism itself.
    static let faulty: [String] = {
        var snippets: [String] = []
        for (_, faults) in GraphMachine.mutants.all {
            snippets += faults.store.selected.map { "_ = StoreBehavior(faults: [\($0)])" }
            snippets += faults.store.selected.map { "var behavior = StoreBehavior()\nbehavior.faults = [\($0)]" }
            snippets += faults.library.selected.map { "_ = LibraryPolicy(faults: [\($0)])" }
            snippets += faults.library.selected.map { "var policy = LibraryPolicy()\npolicy.faults = [\($0)]" }
            if faults.saveTransactions != .single {
                snippets.append("func select(_ container: ModelContainer) { container.saveTransactions = .\(faults.saveTransactions.rawValue) }")
            }
        }
        for (_, strategy) in MapperMachine.mutants.all { snippets += strategy.selected.map { "_ = DTOMapper(strategy: [\($0)])" } }
        for (_, strategy) in CacheMachine.mutants.all {
            snippets += strategy.selected.map { "_ = CacheCore<String, Data>(identifier: \"main\", environment: CacheEnvironment(cachesDirectory: \"/caches\"), strategy: [\($0)])" }
        }
        for (_, strategy) in SyncMachine.mutants.all { snippets += strategy.selected.map { "_ = SyncWorld(strategy: [\($0)])" } }
        for (_, faults) in QueueMachine.mutants.all { snippets += faults.selected.map { "_ = BoundedQueue(capacity: 2, faults: [\($0)])" } }
        snippets += ["_ = Faults<StoreBehavior>.shipped", "_ = Fault<DTOMapper>.renormalizedTags", "_ = CacheStrategy.shipped",
                     "_ = SyncStrategy.production", "_ = MapperStrategy.shipped"]
        return snippets
    }()

    /// The folder of the built modules.
    static var modules: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("Modules")
    }

    /// The `-package-name` the build gave this package's modules (from the build description beside them).
    static func packageName() throws -> String {
        let buildDescription = modules.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("debug.yaml")
        let text = try String(contentsOf: buildDescription, encoding: .utf8)
        guard let flag = text.range(of: "\"-package-name\",\"") else { throw PackageNameNotFound(path: buildDescription.path) }
        return String(text[flag.upperBound...].prefix { $0 != "\"" })
    }

    struct PackageNameNotFound: Error, CustomStringConvertible {
        var path: String
        var description: String { "no -package-name in \(path)" }
    }

    /// Type-checks `body` against the built modules: (exit status, diagnostics). With `packageName`, as code of
    /// this package; without, as code outside it.
    static func typecheck(_ body: String, packageName: String? = nil, imports: String = "import Foundation\n" + imports,
                          extraArguments: [String] = []) throws -> (status: Int32, diagnostics: String) {
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
            + (packageName.map { ["-package-name", $0] } ?? []) + extraArguments
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

    @Test("models declared as SwiftData's, their data code and an app action compile outside the package (the trial's model files)")
    func appTermsCompile() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../AppTrialTests/Model").standardized
        let models = try ["Group", "Task", "Important"].map { name in
            try String(contentsOf: folder.appendingPathComponent("\(name).swift"), encoding: .utf8)
                .replacingOccurrences(of: "import Foundation\nimport GraphStore\n", with: "")
        }
        let code = """
            actor Archiver: ModelActor {
                let modelContext: ModelContext
                init(modelContainer: ModelContainer) { modelContext = ModelContext(modelContainer) }
                func done() throws -> [Task] { try modelContext.fetch(FetchDescriptor<Task>(predicate: { $0.isDone }, sortBy: [SortDescriptor(\\.timestamp)])) }
            }
            func check() throws {
                let container = try ModelContainer(for: Group.self, Task.self, Important.self)
                ModelContext(container).insert(Group(name: "Inbox"))
                let add = AppAction("add", rule: "L1", arguments: { args in try args.model(Group.self) },
                                    effect: { group, graph in
                                        let task = graph.create(Task(title: "t", groups: []))
                                        graph.insert(task, into: graph.context(of: group))
                                        graph.relate(task, \\.groups, to: group)
                                    },
                                    perform: { group, app in Task(title: "t", groups: [try app[group]]) })
                _ = GraphFuzzTest.check(try SchemaMachine(for: Group.self, Task.self, name: "todo", actions: [add]), name: "todo")
            }
            """
        let result = try Self.typecheck(models.joined(separator: "\n") + code,
                                        imports: "import Foundation\nimport GraphStore\nimport GraphStoreRules\nimport GraphFuzzTesting\nimport Testing\n")
        #expect(result.status == 0, "\(result.diagnostics)")
    }

    @Test("every registered mutant selects a fault (or a package-only save grouping), so the snippets cover it")
    func everyMutantSelectsAFault() {
        for (mutant, faults) in GraphMachine.mutants.all where faults.editionEntriesRule == .deny {
            #expect(!faults.store.isShipped || !faults.library.isShipped || faults.saveTransactions != .single, "\(mutant.name)")
        }
        // The one exception: `edition-nullify` selects a delete rule of the public schema API (seed 004's own
        // schema before its fix), a legitimate design an app may choose, not a fault.
        #expect(GraphMachine.mutants.all.filter { $0.selection.editionEntriesRule != .deny }.map(\.mutant.name) == ["edition-nullify"])
        for (mutant, strategy) in MapperMachine.mutants.all { #expect(!strategy.isShipped, "\(mutant.name)") }
        for (mutant, strategy) in CacheMachine.mutants.all { #expect(!strategy.isShipped, "\(mutant.name)") }
        for (mutant, strategy) in SyncMachine.mutants.all { #expect(!strategy.isShipped, "\(mutant.name)") }
        for (mutant, faults) in QueueMachine.mutants.all { #expect(!faults.isShipped, "\(mutant.name)") }
    }

    @Test("no fault is reachable outside the package, and each snippet selects it inside", arguments: faulty)
    func faultIsUnreachable(_ body: String) throws {
        let outside = try Self.typecheck(body)
        #expect(outside.status != 0, "compiled outside the package: \(body)")
        let inside = try Self.typecheck(body, packageName: try Self.packageName())
        #expect(inside.status == 0, "the snippet does not select its fault even inside the package: \(inside.diagnostics)")
    }
}
