@testable import GraphFuzzEngine
import ScheduleSamples
import Testing

/// The cancelled-transfer sample as a property: the money in both accounts stays 100.
private func conserved(_ design: Savings.Design) -> (Draw) -> Outcome {
    { draw in
        let outcome = CancelledTransfer.run(draw, design)
        guard outcome.total != 100 else { return .pass }
        return .fail(Failure(rule: "S1", kind: .mismatch, message: "the accounts hold \(outcome.total), not 100"))
    }
}

@Suite("cancellation as a choice")
struct CancellationTests {
    @Test("all-zero choices cancel nothing; other seeds cancel branches at drawn points")
    func zeroNeverCancels() {
        let zero = CancelledTransfer.run(Draw(replaying: ChoiceSequence([])), .halfUpdated)
        #expect(zero.total == 100)
        #expect(zero.branches.map(\.cancelPoint) == [0, 0] && zero.branches.allSatisfy { $0.cancelled == nil && $0.result == true })
        let cancelled = (UInt64(1)...40).flatMap { seed in CancelledTransfer.run(Draw(seed: seed), .auditFirst).branches.filter { $0.cancelled != nil } }
        #expect(!cancelled.isEmpty)
        #expect(cancelled.allSatisfy { $0.cancelPoint > 0 })
        #expect(cancelled.contains { $0.result == false })
    }

    @Test("a transfer left half-done by a cancellation is found, shrunk to one cancellation at the first point, and replayed")
    func halfUpdatedTransferShrinks() throws {
        let property = conserved(.halfUpdated)
        let found = try #require((UInt64(1)...200).lazy.map { Draw(seed: $0) }.first { property($0) != .pass })
        let failure = try #require(property(Draw(replaying: found.sequence)).failure)
        let shrunk = Shrinker(signature: failure.signature, test: property).shrink(found.sequence).sequence
        let outcome = CancelledTransfer.run(Draw(replaying: shrunk), .halfUpdated)
        // Shortlex makes the points [0, 1] (B cancelled) simpler than [1, 0] (A cancelled).
        #expect(outcome.total == 80)
        #expect(outcome.branches.map(\.cancelPoint) == [0, 1])
        #expect(outcome.branches[1].cancelled == outcome.branches[1].started! + 1 && outcome.branches[1].result == false)
        #expect(outcome.branches[0].cancelled == nil && outcome.branches[0].result == true)
        #expect(outcome.run.picks == [])
        #expect(outcome.run.lines.contains { $0.hasSuffix("B cancelled") }, "\(outcome.run.lines)")
        // The recorded points and picks replay it without the draw.
        var options = Scheduler.Options()
        options.replaying = outcome.run.picks
        options.replayingCancellations = outcome.branches.map(\.cancelPoint)
        let replayed = CancelledTransfer.run(Draw(replaying: ChoiceSequence([])), .halfUpdated, options: options)
        #expect(replayed.total == 80 && replayed.run.lines == outcome.run.lines)
    }

    @Test("the fixed transfer keeps the money whatever is cancelled where")
    func auditFirstConserves() {
        let property = conserved(.auditFirst)
        #expect((UInt64(1)...200).allSatisfy { property(Draw(seed: $0)) == .pass })
    }
}
