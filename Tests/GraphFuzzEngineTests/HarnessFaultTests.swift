import Foundation
import GraphFuzzEngine
import GraphFuzzIsolation
import GraphFuzzTesting
import TestTargets
import Testing

/// The cases of seed 1 of the planted target, up to its first whose harness faults (that one last).
private func casesUpToFirstFault(seed: UInt64 = 1) -> [MachineRun<PlantedHarnessFaultMachine>] {
    let runner = MachineRunner(PlantedHarnessFaultMachine(), maxSteps: Target.plantedHarnessFault.defaultSteps)
    var runs: [MachineRun<PlantedHarnessFaultMachine>] = []
    for index in 0..<200 {
        let run = runner.run(Draw(seed: SplitMix64.caseSeed(run: seed, case: index)), .record)
        runs.append(run)
        if run.outcome.harnessFault != nil { break }
    }
    return runs
}

@Suite("harness faults: the harness's own failure is never a verdict on the code under test")
struct HarnessFaultTests {
    @Test("a step whose harness throws HarnessFault ends the case in a harness-fault outcome naming the step, not in a failure")
    func stepOutcome() throws {
        let runs = casesUpToFirstFault()
        let faulted = try #require(runs.last)
        let fault = try #require(faulted.outcome.harnessFault, "no case of the first 200 drew the scratch step")
        #expect(runs.dropLast().allSatisfy { $0.outcome == .pass })
        #expect(faulted.outcome.failure == nil)
        #expect(fault.step == faulted.steps - 1)
        #expect(fault.stepTrace == "scratch()")
        #expect(fault.place.hasPrefix("TestTargets/PlantedHarnessFault.swift:"))
        // The underlying reason, read from the system error: stable words, no dictionary dump.
        #expect(fault.message == "cannot write the scratch file /dev/null/graph-fuzz-scratch: Not a directory (errno 20)")
        #expect(fault.whereInCase == "step \(faulted.steps) (scratch())")
    }

    @Test("a HarnessFault thrown while making the system is a harness-fault outcome with no step")
    func setupOutcome() throws {
        let run = MachineRunner(PlantedHarnessFaultMachine(scratchAtSetup: true), maxSteps: 5).run(Draw(seed: 1))
        let fault = try #require(run.outcome.harnessFault)
        #expect(run.outcome.failure == nil)
        #expect(run.steps == 0)
        #expect(fault.step == nil)
        #expect(fault.whereInCase == "making the system")
        #expect(fault.message == "cannot write the scratch file /dev/null/graph-fuzz-scratch: Not a directory (errno 20)")
        #expect(fault.place.hasPrefix("TestTargets/PlantedHarnessFault.swift:"))
    }

    @Test("a search stops at the first case whose harness faulted: no failure, nothing shrunk, the case named")
    func searchStops() throws {
        let first = casesUpToFirstFault().count - 1
        let target = Target.plantedHarnessFault
        var found: [FoundFailure] = []
        do throws(RunError) {
            _ = try Campaign(selection: [(target, nil)], options: SearchOptions(seed: 1, runs: 200)).run { event in
                if case .failure(let failure, _) = event { found.append(failure) }
            }
            Issue.record("the search did not stop at the harness fault")
        } catch {
            if case .harnessFault(let fault) = error {
                #expect(fault.target == "planted-harness")
                #expect(fault.mutant == nil)
                #expect(fault.seed == 1)
                #expect(fault.caseIndex == first)
                #expect(fault.fault.stepTrace == "scratch()")
                #expect(fault.description.hasPrefix(
                    "harness fault (not a failure of the code under test): target planted-harness, seed 1, case \(first), step "))
                #expect(fault.description.hasSuffix("the search stopped, nothing was shrunk or saved"))
            } else {
                Issue.record("the search stopped with \(error), not a harness fault")
            }
        }
        #expect(found.isEmpty, "a harness fault was reported as a failure")
        // The first-failure search stops there too: it reports the fault, never a failure or a counterexample.
        do throws(RunError) {
            let search = try Campaign.firstFailure(target, options: SearchOptions(seed: 1, runs: 200))
            let counterexample = String(describing: search.failures.first?.counterexample)
            Issue.record("the first-failure search did not stop at the harness fault: \(search.failures.count) failures, counterexample \(counterexample)")
        } catch {
            if case .harnessFault(let fault) = error {
                #expect(fault.caseIndex == first)
                #expect(fault.target == "planted-harness")
            } else {
                Issue.record("the search stopped with \(error), not a harness fault")
            }
        }
    }

    @Test("a harness fault met while shrinking a real failure stops the search at that failure's case")
    func faultWhileShrinking() throws {
        // The ten cases fail for real; every later run (the shrink of the first) cannot do its work.
        let options = SearchOptions(seed: 1, runs: 10)
        var calls = 0
        let test = LocalExecutor { draw in
            calls += 1
            _ = draw.choose(upTo: 1000)
            return calls <= 10 ? .fail(Failure(rule: "R", kind: .mismatch, message: "fails")) : .harnessFault(HarnessFault("disk full"))
        }
        do throws(RunError) {
            _ = try Campaign(selection: [], options: options).search(SearchPlan(subject: "test", options: options), executor: test, target: nil) { _ in }
            Issue.record("the search did not stop at the harness fault")
        } catch {
            if case .harnessFault(let fault) = error {
                #expect(fault.fault.message == "disk full")
                #expect(fault.seed == 1)
                #expect(fault.caseIndex == 0)
                #expect(calls == 11, "the search went on after the harness fault")
            } else {
                Issue.record("the search stopped with \(error), not a harness fault")
            }
        }
    }

    @Test("an outcome line carries a harness fault to and from a worker")
    func outcomeLine() {
        let fault = HarnessFault(message: "cannot write\tthe copy\nhere", place: "GraphTarget/GraphSystem+Launch.swift:90", step: 3,
                                 stepTrace: "relaunch()")
        let line = OutcomeLine.encode(.harnessFault(fault))
        #expect(!line.contains("\n"))
        #expect(OutcomeLine.decodeOutcome(Substring(line)) == .harnessFault(fault))
        let setup = HarnessFault(message: "no folder", place: "X.swift:1", step: nil, stepTrace: nil)
        #expect(OutcomeLine.decodeOutcome(Substring(OutcomeLine.encode(.harnessFault(setup)))) == .harnessFault(setup))
    }

    @Test("GraphFuzzTest.check fails the test with the harness fault, never with a counterexample, and saves nothing")
    func checkRecordsTheFault() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-fuzz-harness-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var result: CheckResult?
        withKnownIssue("expected: a planted harness fault fails its check with the fault (not a bug)") {
            result = GraphFuzzTest.check(PlantedHarnessFaultMachine(), name: "planted-harness", seed: 1, runs: 200, maxSteps: 10,
                                         corpus: folder)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("graph-fuzz: harness fault (not a failure of the code under test)") ?? false
        }
        let check = try #require(result)
        #expect(check.harnessFault?.caseIndex == casesUpToFirstFault().count - 1)
        #expect(check.reports.isEmpty)
        #expect(check.description.hasPrefix("graph-fuzz: harness fault"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
