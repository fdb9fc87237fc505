import Foundation
@testable import GraphFuzzEngine
import ScheduleSamples
import Testing

/// The thumbnail cache as a machine: `thumbnail` may run concurrently with itself; every request gets its picture.
struct ThumbnailMachine: StateMachine, Sendable {
    let design: ThumbnailCache.Design

    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> ThumbnailCache { ThumbnailCache(design) }
    var concurrentSteps: ConcurrentSteps { ConcurrentSteps(groupProbability: 0.5) }

    var actions: [Action<Self>] {
        [.concurrent("thumbnail", arguments: { args, _ in args.int("id", in: 1...3) },
                     predict: { id, _ in Prediction("thumbnail \(id)", rule: "T1") },
                     perform: { id, cache in await cache.thumbnail(id) })]
    }
}

@Suite("work outside the case")
struct OutsideWorkTests {
    @Test("a Dispatch completion handler bridged with a continuation: the same refusal, naming the call, in 50 of 50 runs of one seed")
    func dispatchCallbackRefusedAlike() throws {
        let target = Target(name: "thumbnails", summary: "", rules: [], mutants: [], defaultSteps: 10, generatorVersion: "0") { _ in
            ThumbnailMachine(design: .callbackInFlightTask)
        }
        var verdicts = Set<String>()
        for _ in 0..<50 {
            do {
                let run = try Campaign(selection: [(target, nil)], options: SearchOptions(seed: 1, runs: 200, steps: 10)).run { _ in }[0]
                verdicts.insert("completed: \(run.failures.count) found")
            } catch {
                verdicts.insert("\(error)")
            }
        }
        #expect(verdicts.count == 1, "\(verdicts.sorted())")
        let verdict = try #require(verdicts.first)
        #expect(verdict.contains("case 0"), "\(verdict)")
        #expect(verdict.contains("handed work to DispatchQueue.async in FakeNetwork.load(_:completion:)"), "\(verdict)")
        #expect(verdict.contains("give the test an async fake of the API"), "\(verdict)")
    }

    @Test("a scheduled run notes the hand-off itself, whichever way the race between handler and await went")
    func handoffNotedEveryRun() {
        // No wait for the handler: whether it comes back in time is the race the note makes irrelevant (and a test
        // driving from a busy cooperative pool may starve the Dispatch thread it needs).
        var notes = Set<[String]>()
        for _ in 0..<50 {
            let outcome = DuplicateDownload.run(Draw(seed: 4), .callbackInFlightTask, options: .init(outsideWait: .zero))
            notes.insert(outcome.run.uncontrolled)
        }
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first?.first == "task 3 handed work to DispatchQueue.async in FakeNetwork.load(_:completion:) at job #2", "\(notes)")
    }
}
