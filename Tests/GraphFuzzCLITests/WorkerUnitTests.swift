import ExampleTargets
@testable import GraphFuzzCLI
import GraphFuzzEngine
@testable import GraphFuzzIsolation
import Testing

@Suite("worker plumbing: case chunks, failure groups, the line protocol")
struct WorkerUnitTests {
    @Test("chunks of any sizes cover each shard's cases exactly once, in order")
    func chunks() {
        for (runs, shardCount) in [(500, 1), (101, 3), (7, 8), (1, 1)] {
            var all: [Int] = []
            for shardIndex in 0..<shardCount {
                for sizes in [[1], [3, 1, 7], [256]] {
                    var cursor = CaseCursor(runs: runs, shardIndex: shardIndex, shardCount: shardCount)
                    var indices: [Int] = []
                    var turn = 0
                    while let chunk = cursor.take(sizes[turn % sizes.count]) {
                        #expect(chunk.count <= sizes[turn % sizes.count])
                        indices += chunk.indices
                        turn += 1
                    }
                    #expect(cursor.remaining == 0)
                    #expect(indices == Array(stride(from: shardIndex, to: runs, by: shardCount)))
                    if sizes == [1] { all += indices }
                }
            }
            #expect(all.sorted() == Array(0..<runs))
        }
        let chunk = CaseChunk(start: 2, stride: 3, count: 4)  // 2 5 8 11
        #expect(chunk.remaining(after: 5) == CaseChunk(start: 8, stride: 3, count: 2))
        #expect(chunk.remaining(after: 11) == nil)
    }

    @Test("groups keep the lowest failing case and count every case, whatever the arrival order")
    func groups() {
        let a = Failure(rule: "crash", kind: .crash, message: "m", detail: "SIGILL: Fatal error: Index out of range")
        let b = Failure(rule: "Q1", kind: .mismatch, message: "m")
        var forward = FailureGroups(), backward = FailureGroups()
        let events = [(3, a), (7, b), (1, a), (9, b), (4, a)]
        for (index, failure) in events { forward.add(case: index, failure) }
        for (index, failure) in events.reversed() { backward.add(case: index, failure) }
        #expect(forward == backward)
        #expect(forward.sorted.map(\.firstCase) == [1, 7])
        #expect(forward.sorted.map(\.count) == [3, 2])
        #expect(forward.failingCases == 5)
    }

    @Test("outcomes survive the line protocol, tabs and newlines included")
    func protocolRoundTrip() {
        let failure = Failure(rule: "G4", kind: .mismatch, message: "expected\t1\nobserved \\ 2", detail: "d\te", step: 3)
        for outcome in [Outcome.pass, .rejected, .fail(failure)] {
            let encoded = OutcomeLine.encode(outcome)
            #expect(!encoded.contains("\n"))
            #expect(OutcomeLine.decodeOutcome(Substring(encoded)) == outcome)
        }
    }

    @Test("text survives the escaping scalar by scalar: a carriage return before a newline, a backslash before a combining mark")
    func escapingScalars() {
        for text in ["a\r\nb", "\r\n", "x\\\u{301}y", "\\t is not a tab", "é\tü\n", "", "plain"] {
            let escaped = OutcomeLine.escape(text)
            #expect(!escaped.utf8.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }, "\(escaped.debugDescription)")
            #expect(OutcomeLine.unescape(Substring(escaped)) == text, "\(text.debugDescription)")
        }
    }

    @Test("a line's fields split at a separator byte as `split(separator:)` splits at the character")
    func byteFields() {
        for text in ["a\tb\t\tc", "\t", "", "\tlead", "trail\t", "é\tü\t→", "one"] {
            let line = Substring(text)
            #expect(line.fields(UInt8(ascii: "\t")) == line.split(separator: "\t", omittingEmptySubsequences: false), "\(text.debugDescription)")
            #expect(line.parts(UInt8(ascii: "\t")) == line.split(separator: "\t"), "\(text.debugDescription)")
        }
        #expect(ChoiceSequence.values(parsing: "0 18446744073709551615  7 ") == [0, UInt64.max, 7])
        #expect(ChoiceSequence.values(parsing: "") == [])
        #expect(ChoiceSequence.values(parsing: "18446744073709551616") == nil, "past 64 bits")
        #expect(ChoiceSequence.values(parsing: "1 +2") == nil)
        #expect(ChoiceSequence.values(parsing: "1\t2") == nil)
    }

    @Test("what a case consumed survives the line protocol, its spans included; a span that is not five numbers is refused")
    func consumedRoundTrip() {
        let delta = ConsumedDelta(choices: [0, 7, UInt64.max], bounds: [1, 9, UInt64.max], spansFrom: 4,
                                  spans: [Span(label: .step, start: 0, end: 3, depth: 0, isDiscarded: false),
                                          Span(label: .value, start: 1, end: 2, depth: 1, isDiscarded: true)], openSpans: [2, 0])
        let fields = Substring(ConsumedLine.encode(delta)).fields(UInt8(ascii: "\t"))
        #expect(ConsumedLine.decode(fields) == delta)
        let empty = ConsumedDelta(choices: [], bounds: [], spansFrom: 0, spans: [], openSpans: [])
        #expect(ConsumedLine.decode(Substring(ConsumedLine.encode(empty)).fields(UInt8(ascii: "\t"))) == empty)
        for spans in ["1,0,3,0", "1,0,3,0,0,5", "1,0,,0,0", "1,0,3,0,x", "-1,0,3,0,0", "4294967296,0,3,0,0"] {
            let line: [Substring] = ["0", "1", "0", Substring(spans), ""]
            #expect(ConsumedLine.decode(line) == nil, "\(spans)")
        }
        let skipped: [Substring] = ["0", "1", "0", ";1,0,1,0,0;;", ""]
        #expect(ConsumedLine.decode(skipped)?.spans == [Span(label: .step, start: 0, end: 1, depth: 0, isDiscarded: false)])
    }

    @Test("requests carry the run's seed and survive the line protocol")
    func requestRoundTrip() {
        let requests: [WorkerRequest] = [.batch(seed: UInt64.max, CaseChunk(start: 3, stride: 2, count: 5)), .runCase(seed: 7, index: 12),
                                          .replay(ChoiceSequence([1, 2, 3])), .replay(ChoiceSequence([])), .corpusFile("Corpus/a b.case"),
                                          .shrink(seed: 9, index: 4, signature: FailureSignature(rule: "G 4\t;", kind: .trap, detail: "x\ny"),
                                                  budget: ShrinkBudget(maxAttempts: 20, maxSeconds: 1.5, maxStall: 7)),
                                          .shrink(seed: 9, index: 4, signature: FailureSignature(rule: "G4", kind: .mismatch), budget: ShrinkBudget())]
        for request in requests { #expect(WorkerRequest(line: request.line) == request, "\(request.line)") }
        #expect(WorkerRequest(line: "b 0 1 4") == nil, "a batch without its seed")
        #expect(WorkerRequest(line: "w 12") == nil, "a case without its seed")
        #expect(WorkerRequest(line: "z 9 4 0,7,-\tmismatch\tG4\t") == nil, "a shrink without attempts")
        #expect(WorkerRequest(line: "q 1") == nil)
    }

    @Test("the trap message is the first line from 'Fatal error:' on")
    func trapMessage() {
        let stderr = "\nSwift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range\nCurrent stack trace:\n"
        #expect(WorkerProcess.trapMessage(in: stderr) == "Fatal error: Index out of range")
        #expect(WorkerProcess.trapMessage(in: "  oops\nmore") == "oops")
        #expect(WorkerProcess.trapMessage(in: "") == "")
        #expect(WorkerFailure.crash(.signaled(4), trapMessage: "Fatal error: x").signature.detail == "SIGILL: Fatal error: x")
    }
}

@Suite("reproductions")
struct SwiftTestOfferTests {
    @Test("a Swift test that cannot fail is never offered as a reproduction")
    func skeletonIsNoReproduction() {
        let skeleton = ["// config()", "// push(value: 0)  → expect true"]
        #expect(!SwiftTestRenderer.canFail(skeleton, kind: .mismatch))
        #expect(!SwiftTestRenderer.canFail(skeleton, kind: .crash))
        #expect(!SwiftTestRenderer.canFail(["var queue = BoundedQueue(capacity: 1)", "queue.push(0)"], kind: .mismatch))
        #expect(SwiftTestRenderer.canFail(["var queue = BoundedQueue(capacity: 1)", "#expect(queue.push(0) == true)"], kind: .mismatch))
        #expect(SwiftTestRenderer.canFail(["var buffer = PlantedBuffer()", "buffer.rotate(by: 1)"], kind: .hang))
    }
}

@Suite("harness faults")
struct HarnessFaultTests {
    @Test("a trap in the harness's own code is recognised; a trap in production code or the standard library is not")
    func harnessTrap() {
        #expect(WorkerProcess.harnessFault(in: "GraphFuzzEngine/MachineRunner.swift:40: Fatal error: too many steps\n") != nil)
        #expect(WorkerProcess.harnessFault(in: "/src/Sources/GraphFuzzCLI/WorkerCommand.swift:9: Fatal error: x") != nil)
        #expect(WorkerProcess.harnessFault(in: "GraphStore/ModelContext.swift:12: Fatal error: crossContextRelationship") == nil)
        #expect(WorkerProcess.harnessFault(in: "Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range") == nil)
    }
}

@Suite("worker budget")
struct WorkerBudgetTests {
    @Test("--jobs is capped at the cores and at what the open-file limit holds; too few files is a usage error")
    func plan() throws {
        let cores = try WorkerBudget.plan(requested: 200, cores: 2, openFileLimit: 256, openFiles: 6)
        #expect(cores.jobs == 2 && cores.note?.contains("capped at 2, the cores") == true)
        let files = try WorkerBudget.plan(requested: nil, cores: 64, openFileLimit: 50, openFiles: 6)
        #expect(files.jobs == 12 && files.note?.contains("open-file limit of 50") == true)
        #expect(try WorkerBudget.plan(requested: 1, cores: 2, openFileLimit: 16, openFiles: 6) == WorkerBudget(jobs: 1, note: nil))
        #expect(throws: WorkerError.self) { try WorkerBudget.plan(requested: 1, cores: 2, openFileLimit: 8, openFiles: 6) }
    }
}

@Suite("a search worker shrinks where it ran the failure")
struct BatchShrinkTests {
    /// One worker runs the cases in order, so the first failure of a signature it meets is its group's lowest case:
    /// settling the group reads the shrink and the shrunk case's record the batch told, and runs nothing more.
    @Test("the shrink made in the batch is the one an in-process search makes, and settling it runs no case")
    func sameShrinkNothingRunsAgain() throws {
        let options = SearchOptions(seed: 1, runs: 40)
        let plan = SearchPlan(.queue, mutant: "queue-off-by-one", options: options)
        let executor = ProcessExecutor(name: "queue", workers: 1, caseTimeout: 10, launch: WorkerCommand.launch(Package.executable, entry: nil, plan: plan))
        let inWorker = try Campaign(selection: [], options: options).search(plan, executor: executor, target: .queue) { _ in }
        let inProcess = try Campaign(selection: [(.queue, "queue-off-by-one")], options: options).run { _ in }[0]
        #expect(!inProcess.failures.isEmpty)
        #expect(inWorker.failures.map(\.shrunk) == inProcess.failures.map(\.shrunk))
        #expect(inWorker.failures.map(\.shrink.attempts) == inProcess.failures.map(\.shrink.attempts))
        #expect(inWorker.failures.map(\.counterexample) == inProcess.failures.map(\.counterexample))
        #expect(executor.requests.shrinks == inProcess.failures.count)
        #expect(executor.requests.firstRuns == 0 && executor.requests.descriptions == 0)
    }
}
