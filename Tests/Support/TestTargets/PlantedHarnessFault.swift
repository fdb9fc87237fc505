import Foundation
import GraphFuzzEngine

/// The test-only `planted-harness` target: a counter whose harness, at its `scratch` step, writes
/// a scratch file where no file can be written (under `/dev/null`), as a harness would on a full
/// or unwritable disk. That step ends in a `HarnessFault`, never in a failure of the counter: the
/// search stops at the first case that draws it, and `graph-fuzz` exits 3. Registered only by
/// the test executable `graph-fuzz-planted`, never by `graph-fuzz`.
public struct PlantedHarnessFaultMachine: StateMachine, Sendable {
    /// The counter's sum, in the model and in the system.
    public typealias Model = Int
    public typealias System = Int

    /// Where the `scratch` step writes: a path no process can create (its parent is not a folder).
    public let scratchPath: String
    /// Whether making the system writes the scratch file too (so every case faults before its first step).
    public let scratchAtSetup: Bool

    public init(scratchPath: String = "/dev/null/graph-fuzz-scratch", scratchAtSetup: Bool = false) {
        self.scratchPath = scratchPath
        self.scratchAtSetup = scratchAtSetup
    }

    public func makeModel(_ config: NoConfig) -> Int { 0 }
    public func makeSystem(_ config: NoConfig) throws -> Int {
        if scratchAtSetup { try writeScratch() }
        return 0
    }

    /// The harness's own I/O: its failure is the harness's, not the counter's.
    func writeScratch() throws(HarnessFault) {
        do { try Data([1]).write(to: URL(fileURLWithPath: scratchPath)) } catch {
            throw HarnessFault("cannot write the scratch file \(scratchPath)", underlying: error)
        }
        try? FileManager.default.removeItem(atPath: scratchPath)
    }

    public var actions: [Action<Self>] {
        [Action("add", weight: 12, arguments: { args, _ in args.int("value", in: 0...9) },
                predict: { (value: Int, model: inout Int) in
                    model += value
                    return Prediction(model, rule: "H1")
                },
                perform: { (value: Int, system: inout Int) in
                    system += value
                    return system
                }),
         Action("scratch", weight: 1, predict: { (model: inout Int) in Prediction(model, rule: "H1") }, perform: { (system: inout Int) in
             try writeScratch()
             return system
         })]
    }
}

extension Target {
    /// The test-only target whose harness faults at its `scratch` step.
    public static var plantedHarnessFault: Target {
        Target(name: "planted-harness", summary: "test-only: a counter whose harness cannot write its scratch file",
               rules: [Rule(id: "H1", statement: "the counter holds the sum of the values added", source: "test-only", confidence: "design")],
               mutants: [], defaultSteps: 10, generatorVersion: "1") { _ in PlantedHarnessFaultMachine() }
    }
}
