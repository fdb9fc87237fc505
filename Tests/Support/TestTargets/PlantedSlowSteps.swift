import Foundation
import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test-only `planted-slow` target: a counter whose every step sleeps, so a test knows a lower bound of a
/// run's wall time (its steps times the sleep) and can stop a run while it shrinks. Its mutant
/// `planted-slow-wraps` wraps the sum at 16, so most cases fail (rule W1) and shrink slowly, a step at a time.
///
/// Set by the test that starts it: `GRAPH_FUZZ_PLANTED_STEP_MS`, the milliseconds each step sleeps (default 30),
/// and `GRAPH_FUZZ_PLANTED_LOG`, a file to which every case appends a line as it starts (how a test sees that a
/// run has moved on from its search to shrinking). Registered only by `graph-fuzz-planted`, never by `graph-fuzz`.
public struct PlantedSlowMachine: StateMachine, Sendable {
    public typealias Model = Int
    public typealias System = Int

    /// The mutant's fault: the sum wraps at 16.
    public let wraps: Bool
    let stepMicroseconds: UInt32
    let log: String?

    public init(wraps: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.wraps = wraps
        stepMicroseconds = UInt32(environment["GRAPH_FUZZ_PLANTED_STEP_MS"].flatMap { UInt32($0) } ?? 30) * 1000
        log = environment["GRAPH_FUZZ_PLANTED_LOG"]
    }

    public func makeModel(_ config: NoConfig) -> Int { 0 }

    public func makeSystem(_ config: NoConfig) -> Int {
        if let log {
            let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            if descriptor >= 0 {
                _ = "case\n".withCString { write(descriptor, $0, 5) }
                close(descriptor)
            }
        }
        return 0
    }

    public var actions: [Action<Self>] {
        [Action("add", weight: 1, arguments: { args, _ in args.int("value", in: 0...9) },
                predict: { (value: Int, model: inout Int) in
                    model += value
                    return Prediction(model, rule: "W1")
                },
                perform: { (value: Int, system: inout Int) in
                    usleep(stepMicroseconds)
                    system = wraps ? (system + value) % 16 : system + value
                    return system
                })]
    }
}

extension Target {
    /// The test-only target whose steps sleep, with a mutant that fails most cases.
    public static var plantedSlow: Target {
        Target(name: "planted-slow", summary: "test-only: a counter whose every step sleeps",
               rules: [Rule(id: "W1", statement: "the counter holds the sum of the values added", source: "test-only", confidence: "design")],
               mutants: [Mutant(name: "planted-slow-wraps", rule: "W1", summary: "the sum wraps at 16")], defaultSteps: 8,
               generatorVersion: "1") { mutant in PlantedSlowMachine(wraps: mutant != nil) }
    }
}
