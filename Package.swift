// swift-tools-version: 6.0
// GraphFuzz: an executable specification of SwiftData/Core Data object-graph rules,
// checked by randomized, shrinking state-machine tests against production code.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// Where processes cannot be started, process isolation compiles to "unavailable" (a build elsewhere takes the same
/// path with `-Xswiftc -DGRAPHFUZZ_NO_PROCESSES`: .ci/run builds it so).
let noProcesses: [SwiftSetting] = [.define("GRAPHFUZZ_NO_PROCESSES", .when(platforms: [.iOS, .tvOS, .watchOS, .visionOS]))]

let package = Package(
    name: "GraphFuzz",
    // The engine, GraphFuzzIsolation and GraphFuzzTesting build on every platform (without processes, isolation says
    // it is unavailable); the command line, the stores' SQLite backend and the tools need macOS or Linux. The
    // versions are the first with the Synchronization module and task executors, which the package uses.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "graph-fuzz", targets: ["graph-fuzz"]),
        .executable(name: "graph-fuzz-libfuzzer", targets: ["graph-fuzz-libfuzzer"]),
        .library(name: "GraphFuzzEngine", targets: ["GraphFuzzEngine"]),
        .library(name: "GraphFuzzTesting", targets: ["GraphFuzzTesting"]),
        .library(name: "GraphStore", targets: ["GraphStore"]),
        .library(name: "BooksTracker", targets: ["BooksTracker"]),
        .library(name: "PersistentCache", targets: ["PersistentCache"]),
        .library(name: "GlassSync", targets: ["GlassSync"]),
        // The object-graph rules for a schema of yours, checked against GraphStore (README, "Your own schema").
        .library(name: "GraphStoreRules", targets: ["GraphStoreRules", "GraphSpec"]),
    ],
    targets: [
        // Layer 1: the engine (choices, generators, state machines, shrinking, reports). Knows no domain.
        .target(name: "GraphFuzzEngine", swiftSettings: strict),
        // Process isolation: worker processes that a trap or a hang takes down instead of the search (the only
        // module that starts processes, graph-store-crasher's kill campaign aside). Without processes (iOS, tvOS,
        // watchOS, visionOS, or -DGRAPHFUZZ_NO_PROCESSES) it builds and says it is unavailable.
        .target(name: "GraphFuzzIsolation", dependencies: ["GraphFuzzEngine"], swiftSettings: strict + noProcesses),
        // Swift Testing bridge: run a machine inside @Test and record a failure as an issue.
        .target(name: "GraphFuzzTesting", dependencies: ["GraphFuzzEngine", "GraphFuzzIsolation"], swiftSettings: strict),

        // Layer 2: production code (the systems under test). No test-only branches, only fault points: the one
        // mechanism they share (`package` access, no product, no dependency; docs/architecture.md).
        .target(name: "FaultPoints", swiftSettings: strict),
        // The system's SQLite 3 (libsqlite3-dev on Linux, the SDK's on macOS): GraphStore's on-disk backend.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "GraphStore", dependencies: ["CSQLite", "FaultPoints"], swiftSettings: strict),
        // Performs saves on an SQLite store and kills itself at a chosen write operation (the kill tests).
        .executableTarget(name: "graph-store-crasher", dependencies: ["GraphStore", "BooksTracker"], swiftSettings: strict),
        .target(name: "BooksTracker", dependencies: ["GraphStore", "FaultPoints"], swiftSettings: strict),
        .target(name: "PersistentCache", dependencies: ["FaultPoints"], swiftSettings: strict),
        .target(name: "GlassSync", dependencies: ["GraphStore", "FaultPoints"], swiftSettings: strict),

        // Layer 3: the executable specification. Pure value types; never imports production code.
        .target(name: "GraphSpec", dependencies: ["GraphFuzzEngine"], swiftSettings: strict),
        .target(name: "BooksSpec", dependencies: ["GraphFuzzEngine", "GraphSpec"], swiftSettings: strict),
        .target(name: "MapperSpec", dependencies: ["GraphFuzzEngine"], swiftSettings: strict),
        .target(name: "CacheSpec", dependencies: ["GraphFuzzEngine"], swiftSettings: strict),
        .target(name: "SyncSpec", dependencies: ["GraphFuzzEngine"], swiftSettings: strict),

        // Layer 4: targets: step specification and system side by side; mutants select strategy points.
        .target(name: "ExampleTargets", dependencies: ["GraphFuzzEngine", "FaultPoints"], swiftSettings: strict),
        // The object-graph rules over any schema against GraphStore: the store's actions and system, and the
        // machine a user gives a schema of theirs (the `GraphStoreRules` product).
        .target(name: "GraphStoreRules", dependencies: ["GraphFuzzEngine", "GraphSpec", "GraphStore"], swiftSettings: strict),
        .target(name: "GraphTarget", dependencies: ["GraphFuzzEngine", "GraphSpec", "BooksSpec", "GraphStoreRules", "GraphStore", "BooksTracker", "FaultPoints"],
                swiftSettings: strict),
        .target(name: "MapperTarget", dependencies: ["GraphFuzzEngine", "MapperSpec", "GraphStore", "BooksTracker"], swiftSettings: strict),
        .target(name: "CacheTarget", dependencies: ["GraphFuzzEngine", "CacheSpec", "PersistentCache"], swiftSettings: strict),
        .target(name: "SyncTarget", dependencies: ["GraphFuzzEngine", "SyncSpec", "GlassSync"], swiftSettings: strict),

        // Layer 5: the command line.
        .target(name: "GraphFuzzCLI", dependencies: [
            "GraphFuzzEngine", "GraphFuzzIsolation", "ExampleTargets", "GraphTarget", "MapperTarget", "CacheTarget", "SyncTarget",
        ], swiftSettings: strict),
        .executableTarget(name: "graph-fuzz", dependencies: ["GraphFuzzCLI"], swiftSettings: strict),
        // Coverage-guided fuzzing: every target under libFuzzer. A plain build replays inputs; the libFuzzer
        // build adds `-Xswiftc -sanitize=fuzzer -Xswiftc -DGRAPHFUZZ_LIBFUZZER` (README; .clusterfuzzlite/build.sh).
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "graph-fuzz-libfuzzer", dependencies: ["GraphFuzzCLI", "GraphFuzzEngine", "CLibFuzzer"],
                          swiftSettings: strict),
        // The scheduler's sample concurrency bugs, shared by its tests and its benchmark (`schedule-bench`).
        .target(name: "ScheduleSamples", dependencies: ["GraphFuzzEngine"], swiftSettings: strict),
        .executableTarget(name: "schedule-bench", dependencies: ["GraphFuzzEngine", "ScheduleSamples", "CacheTarget", "PersistentCache",
                                                                 "MapperTarget", "GraphTarget", "BooksTracker", "GraphStore"], swiftSettings: strict),

        // Targets for tests only (planted faults, the shrinking challenge), and `graph-fuzz` with the planted targets
        // registered, for the tests that must start a real executable that crashes, hangs or faults.
        .target(name: "TestTargets", dependencies: ["GraphFuzzEngine"], path: "Tests/Support/TestTargets", swiftSettings: strict),
        .executableTarget(name: "graph-fuzz-planted", dependencies: ["GraphFuzzCLI", "TestTargets"], path: "Tests/Support/graph-fuzz-planted",
                          swiftSettings: strict),

        .testTarget(name: "GraphFuzzEngineTests", dependencies: ["GraphFuzzEngine", "GraphFuzzIsolation", "GraphFuzzTesting", "ExampleTargets", "TestTargets", "ScheduleSamples"],
                    swiftSettings: strict),
        .testTarget(name: "SchedulingTests", dependencies: ["GraphFuzzEngine", "GraphFuzzTesting", "ScheduleSamples"], swiftSettings: strict),
        .testTarget(name: "GraphStoreTests", dependencies: ["GraphStore", "BooksTracker", "CSQLite", "FaultPoints", "graph-store-crasher"], swiftSettings: strict),
        .testTarget(name: "PersistentCacheTests", dependencies: ["PersistentCache"], swiftSettings: strict),
        .testTarget(name: "GlassSyncTests", dependencies: ["GlassSync", "GraphStore"], swiftSettings: strict),
        .testTarget(name: "BooksTrackerTests", dependencies: ["BooksTracker", "GraphStore"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "TargetTests", dependencies: [
            "GraphFuzzEngine", "GraphFuzzTesting", "GraphTarget", "MapperTarget", "CacheTarget", "SyncTarget", "ExampleTargets",
        ], swiftSettings: strict),
        .testTarget(name: "FuzzingTests", dependencies: ["GraphFuzzCLI", "GraphFuzzEngine", "ExampleTargets"], swiftSettings: strict),
        .testTarget(name: "GraphFuzzCLITests", dependencies: ["GraphFuzzCLI", "GraphFuzzEngine", "GraphFuzzIsolation", "ExampleTargets", "FaultPoints", "TestTargets",
                                                           "graph-fuzz", "graph-fuzz-planted"],
                    resources: [.copy("Fixtures")], swiftSettings: strict),
        // The new-user trial: a public SwiftData app's model files brought over with the guide's changes, and two of its
        // flows checked (its own module: the app's `Task` model shadows Swift's `Task` there).
        .testTarget(name: "AppTrialTests", dependencies: [
            "GraphFuzzEngine", "GraphFuzzTesting", "GraphStore", "GraphStoreRules",
        ], swiftSettings: strict),
        // The corpus exported as Swift tests against the production API (`graph-fuzz export-tests`).
        .testTarget(name: "CorpusRegressionTests", dependencies: [
            "GraphFuzzEngine", "GraphFuzzTesting", "ExampleTargets", "GraphStore", "BooksTracker", "PersistentCache", "GlassSync", "CacheSpec", "CacheTarget", "GraphTarget", "MapperTarget",
        ],
                    swiftSettings: strict),
    ]
)
