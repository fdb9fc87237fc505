import ExampleTargets
import GraphFuzzCLI
import GraphFuzzEngine
import Testing

@Suite("Choices ↔ fuzzer bytes")
struct ChoiceBytesTests {
    @Test("a choice takes as many bytes as its bound needs, big-endian")
    func encoding() {
        #expect(ChoiceBytes.width(of: 0) == 0)
        #expect(ChoiceBytes.width(of: 1) == 1)
        #expect(ChoiceBytes.width(of: 255) == 1)
        #expect(ChoiceBytes.width(of: 256) == 2)
        #expect(ChoiceBytes.width(of: .max) == 8)
        #expect(ChoiceBytes.encode([1, 0, 0x1234, 7], bounds: [1, 0, 0xFFFF, 9]) == [1, 0x12, 0x34, 7])
        // Trailing zeros are dropped: a bytes draw reads missing bytes as 0.
        #expect(ChoiceBytes.encode([3, 0, 0], bounds: [5, 5, 300]) == [3])
    }

    @Test("bytes encoded from a case's choices make a bytes draw replay the same case, on every target",
          arguments: Registry.standard.targets.map(\.name))
    func roundTrip(targetName: String) throws {
        let target = try #require(Registry.standard.target(named: targetName))
        let harness = FuzzHarness(target: target)
        var longest = 0
        for seed in UInt64(1)...20 {
            let draw = Draw(seed: SplitMix64.caseSeed(run: 7, case: Int(seed)))
            harness.generate(draw)
            let bytes = harness.bytes(replaying: draw.sequence)
            let replayed = harness.choices(from: bytes)
            // Equal up to trailing zeros (the encoding drops them; the replay reads them as 0).
            #expect(trimmed(replayed.values) == trimmed(draw.choices), "seed \(seed)")
            let machine = target.machine()
            #expect(machine.generate(Draw(.bytes(bytes)), harness.maxSteps) == machine.generate(Draw(replaying: draw.sequence), harness.maxSteps))
            longest = max(longest, bytes.count)
        }
        #expect(longest > 0, "the seeds made no case with a choice")
    }

    @Test("a failing case converted to bytes fails the same way when run from them")
    func failingCaseRoundTrip() throws {
        let target = try #require(Registry.standard.target(named: "queue"))
        let search = try Campaign.firstFailure(target, mutant: "queue-off-by-one", options: SearchOptions(seed: 1, runs: 2000))
        let found = try #require(search.failures.first)
        let harness = FuzzHarness(target: target, mutant: "queue-off-by-one")
        let outcome = harness.run(harness.bytes(replaying: found.shrunk)).outcome
        #expect(outcome.failure?.signature == found.failure.signature)
    }

    private func trimmed(_ values: [UInt64]) -> [UInt64] {
        var values = values
        while values.last == 0 { values.removeLast() }
        return values
    }
}
