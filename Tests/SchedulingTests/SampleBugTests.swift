import GraphFuzzEngine
import ScheduleSamples
import Testing

@Suite("sample bugs")
struct SampleBugTests {
    @Test("each sample bug: FIFO never shows it, a random walk or PCT does within 200 seeds, its fix never shows",
          arguments: SampleBug.all.map(\.name))
    func sampleBug(_ name: String) throws {
        let bug = try #require(SampleBug.all.first { $0.name == name })
        let walk = Scheduler.Options(strategy: .randomWalk, outsideWait: .zero)
        let pct = Scheduler.Options(strategy: .pct(depth: 3, expectedSteps: 16), outsideWait: .zero)
        #expect(!bug.shows(Draw(replaying: ChoiceSequence([])), walk))
        #expect((UInt64(1)...200).contains { bug.shows(Draw(seed: $0), walk) || bug.shows(Draw(seed: $0), pct) })
        #expect(!(UInt64(1)...200).contains { bug.fixedShows(Draw(seed: $0), walk) || bug.fixedShows(Draw(seed: $0), pct) })
    }

    @Test("a portfolio draws one member per run: all-zero choices run its first member's FIFO, each member is drawn, a seed replays")
    func portfolio() {
        let portfolio = Scheduler.Options(strategy: .portfolio([.randomWalk, .pct(depth: 3, expectedSteps: 16)]))
        #expect(LostUpdate.run(Draw(replaying: ChoiceSequence([])), strategy: portfolio.strategy).run.lines
                == LostUpdate.run(Draw(replaying: ChoiceSequence([])), strategy: .randomWalk).run.lines)
        let members = Set((UInt64(1)...40).map { seed -> UInt64 in
            let draw = Draw(seed: seed)
            _ = LostUpdate.run(draw, strategy: portfolio.strategy)
            return draw.sequence.values.first ?? 0
        })
        #expect(members == [0, 1])
        let draw = Draw(seed: 9)
        let first = LostUpdate.run(draw, strategy: portfolio.strategy)
        #expect(LostUpdate.run(Draw(replaying: draw.sequence), strategy: portfolio.strategy).run.lines == first.run.lines)
    }
}
