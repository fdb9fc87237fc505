import Foundation
import GraphFuzzEngine
import GraphFuzzTesting
import Testing

/// A user-style machine with a planted trap: the account's balance is unsigned and `withdraw`
/// forgets to refuse an overdraft, so withdrawing more than the balance traps (arithmetic
/// overflow) and takes its process down.
struct OverdraftMachine: StateMachine, Sendable {
    struct Model: Sendable { var balance = 0 }
    struct System: Sendable { var balance: UInt = 0 }

    func makeModel(_ config: NoConfig) -> Model { Model() }
    func makeSystem(_ config: NoConfig) -> System { System() }

    var actions: [Action<Self>] {
        [Action("deposit", weight: 3, arguments: { args, _ in args.int("amount", in: 1...9) },
                predict: { amount, model in
                    model.balance += amount
                    return Prediction("\(model.balance)", rule: "T1")
                },
                perform: { amount, system in
                    system.balance += UInt(amount)
                    return "\(system.balance)"
                }),
         Action("withdraw", weight: 1, arguments: { args, _ in args.int("amount", in: 1...9) },
                predict: { amount, model in
                    guard amount <= model.balance else { return Prediction("refused", rule: "T2") }
                    model.balance -= amount
                    return Prediction("\(model.balance)", rule: "T2")
                },
                perform: { amount, system in
                    system.balance -= UInt(amount)  // planted: no overdraft check, traps below zero
                    return "\(system.balance)"
                })]
    }
}

/// The scenario the test below runs in a child test process: enabled only there.
@Suite("PlantedTrapScenario", .enabled(if: ProcessInfo.processInfo.environment["GRAPHFUZZ_PLANTED_TRAP"] == "1"))
struct PlantedTrapScenario {
    @Test("a machine whose code traps, checked with process isolation")
    func plantedTrap() {
        GraphFuzzTest.check(OverdraftMachine(), name: "overdraft", seed: 1, runs: 300, isolation: .process)
    }

    @Test("a sibling test of the same run")
    func siblingTest() {
        #expect(OverdraftMachine().actions.count == 2)
    }
}

@Suite("process isolation")
struct ProcessIsolationTests {
    @Test("a trap in a user-style machine fails its own test with a shrunk crash report; the other tests still run")
    func trapFailsOnlyItsTest() throws {
        let binary = try #require(Bundle.main.executableURL)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("graph-fuzz-isolation-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--testing-library", "swift-testing", "--filter", "PlantedTrapScenario"]
        var environment = ProcessInfo.processInfo.environment
        environment["GRAPHFUZZ_PLANTED_TRAP"] = "1"
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        // The run ended normally with a failing test: the trap did not take the test process down.
        #expect(process.terminationReason == .exit, "\(output)")
        #expect(process.terminationStatus == 1, "\(output)")
        // One failing test, with the crash shrunk to its one-step minimum and a reproduce line.
        #expect(output.contains("FAILURE overdraft — rule crash, crash"), "\(output)")
        #expect(output.contains("1. withdraw(amount: 1)"), "\(output)")
        #expect(!output.contains("2. "), "\(output)")
        #expect(output.contains("reproduce: swift test --filter 'plantedTrap'  (seed 1)"), "\(output)")
        // The sibling test ran and passed.
        #expect(output.contains("Test \"a sibling test of the same run\" passed"), "\(output)")
    }
}
