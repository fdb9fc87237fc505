import Foundation
import GraphFuzzCLI
import GraphFuzzEngine
import TestTargets
import Testing

@Suite("harness faults: exit 3, never a failure of the code under test")
struct HarnessFaultExitTests {
    /// The lowest case of seed 1 whose harness faults (the planted target's `scratch` step).
    private var firstFaultingCase: Int? {
        let machine = Target.plantedHarnessFault.machine()
        return (0..<200).first { index in
            machine.run(Draw(seed: SplitMix64.caseSeed(run: 1, case: index)), Target.plantedHarnessFault.defaultSteps).outcome.harnessFault != nil
        }
    }

    @Test("in process: exit 3 with the target, seed, case, step and reason; no failure reported, nothing saved")
    func inProcess() throws {
        let corpus = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let first = try #require(firstFaultingCase)
        let registry = Registry(targets: [.plantedHarnessFault])
        let result = runInProcess(["--target", "planted-harness", "--seed", "1", "--runs", "200", "--in-process", "--corpus", corpus],
                                  registry: registry)
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("graph-fuzz: harness fault (not a failure of the code under test): target planted-harness, "
            + "seed 1, case \(first), step "))
        #expect(result.stderr.contains("(scratch()): cannot write the scratch file /dev/null/graph-fuzz-scratch: Not a directory (errno 20)"))
        #expect(!result.stderr.contains("internal error"))
        #expect(!result.stdout.contains("FAILURE"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: corpus).isEmpty, "a harness fault was saved to the corpus")
    }

    @Test("in worker processes: the same exit 3 and the same case")
    func workers() throws {
        let corpus = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: corpus) }
        let first = try #require(firstFaultingCase)
        let result = try graphFuzz(["--target", "planted-harness", "--seed", "1", "--runs", "200", "--jobs", "1", "--corpus", corpus],
                                   executable: Package.plantedExecutable)
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("harness fault (not a failure of the code under test): target planted-harness, seed 1, case \(first), step "))
        #expect(result.stderr.contains("Not a directory (errno 20)"))
        #expect(!result.stdout.contains("FAILURE"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: corpus).isEmpty, "a harness fault was saved to the corpus")
    }
}
