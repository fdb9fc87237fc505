import Foundation
@testable import GraphFuzzEngine
import ScheduleSamples
import Testing

/// An actor whose unstructured task sleeps while isolated to it: the shape that reaches the default executor
/// directly, past every runtime hook.
actor Sleeper {
    private(set) var woke: [String] = []

    func sleepInTask(_ name: String, _ duration: Duration) async {
        await Task { await self.nap(name, duration) }.value
    }

    private func nap(_ name: String, _ duration: Duration) async {
        try? await Task.sleep(for: duration)
        woke.append(name)
    }

    func yieldInTask() async -> Int {
        await Task { () -> Int in
            await Task.yield()
            return self.woke.count
        }.value
    }
}

/// Runs `operation`, or throws `TimedOut` when `limit` passes first: a timeout built from a sleep, as apps write it.
func withTimeout<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TimedOut()
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
    }
}

struct TimedOut: Error {}

@_silgen_name("swift_task_createNullaryContinuationJob")
private func createNullaryContinuationJob(_ priority: Int, _ continuation: UnsafeRawPointer) -> UnownedJob
@_silgen_name("swift_task_enqueueGlobalWithDelay")
private func enqueueGlobalWithDelay(_ nanoseconds: UInt64, _ job: UnownedJob)
@_silgen_name("swift_task_enqueueGlobalWithDeadline")
private func enqueueGlobalWithDeadline(_ seconds: Int64, _ nanoseconds: Int64, _ toleranceSeconds: Int64, _ toleranceNanoseconds: Int64,
                                       _ clock: Int32, _ job: UnownedJob)

@Suite("virtual time")
struct VirtualTimeTests {
    @Test("the in-flight Task of a thumbnail cache sleeps on the case's clock: controlled in 20 of 20 runs")
    func inFlightTaskSleeps() {
        var lines: [UInt64: [String]] = [:]
        for run in 0..<20 {
            let seed = UInt64(run % 10)
            let outcome = DuplicateDownload.run(Draw(seed: seed), .inFlightTask)
            #expect(outcome.run.uncontrolled.isEmpty, "run \(run): \(outcome.run.uncontrolled)")
            #expect(!outcome.run.steps.contains { $0.external })
            #expect(outcome.results == ["thumbnail 1", "thumbnail 1"])
            #expect(outcome.downloads == 1)
            #expect(outcome.run.virtualTime == 30_000_000)
            #expect(outcome.run.steps.contains { $0.place == "timer after 30 ms" })
            if let earlier = lines[seed] { #expect(earlier == outcome.run.lines, "seed \(seed) ran differently the second time") }
            lines[seed] = outcome.run.lines
        }
    }

    @Test("every sleep form, from every kind of task, wakes in deadline order on the virtual clock")
    func sleepForms() {
        for seed in UInt64(1)...10 {
            let log = EventLog()
            let sleeper = Sleeper()
            let run = Scheduler(draw: Draw(seed: seed)).runConcurrently([
                ScheduledBranch("duration") { try? await Task.sleep(for: .milliseconds(70)); log.append("duration 70") },
                ScheduledBranch("nanoseconds") { try? await Task.sleep(nanoseconds: 20_000_000); log.append("nanoseconds 20") },
                ScheduledBranch("deadline") {
                    try? await Task.sleep(until: .now + .milliseconds(40), clock: .continuous)
                    log.append("deadline 40")
                },
                ScheduledBranch("suspending") {
                    try? await SuspendingClock().sleep(until: .now + .milliseconds(50))
                    log.append("suspending 50")
                },
                ScheduledBranch("clock") { try? await ContinuousClock().sleep(for: .milliseconds(10)); log.append("clock 10") },
                ScheduledBranch("actor task") { await sleeper.sleepInTask("actor task 30", .milliseconds(30)); log.append("actor task 30") },
                ScheduledBranch("detached") {
                    await Task.detached { try? await Task.sleep(for: .milliseconds(60)) }.value
                    log.append("detached 60")
                },
                ScheduledBranch("main actor") { @MainActor in
                    try? await Task.sleep(for: .milliseconds(80))
                    log.append("main actor 80")
                },
            ]).run
            #expect(log.events == ["clock 10", "nanoseconds 20", "actor task 30", "deadline 40", "suspending 50", "detached 60",
                                   "duration 70", "main actor 80"], "seed \(seed)")
            #expect(run.virtualTime == 80_000_000)
            #expect(run.uncontrolled.isEmpty, "\(run.uncontrolled)")
            #expect(!run.steps.contains { $0.external })
        }
    }

    @Test("a timeout built from a sleep fires on the virtual clock, never before the work it guards could finish")
    func timeouts() {
        for seed in UInt64(1)...10 {
            let slow = Scheduler(draw: Draw(seed: seed)).run { () -> String in
                do { return try await withTimeout(.seconds(1)) { try await Task.sleep(for: .seconds(2)); return "done" } } catch { return "timed out" }
            }
            #expect(slow.value == "timed out")
            #expect(slow.virtualTime == 1_000_000_000)
            let fast = Scheduler(draw: Draw(seed: seed)).run { () -> String in
                do { return try await withTimeout(.seconds(1)) { try await Task.sleep(for: .milliseconds(999)); return "done" } } catch { return "timed out" }
            }
            #expect(fast.value == "done")
            #expect(fast.virtualTime == 999_000_000)
            #expect(slow.uncontrolled.isEmpty && fast.uncontrolled.isEmpty)
        }
    }

    @Test("Task.yield on an actor inside an unstructured task stays in the case")
    func unstructuredYieldOnActor() {
        for seed in UInt64(1)...20 {
            let sleeper = Sleeper()
            let run = Scheduler(draw: Draw(seed: seed), options: .init(outsideWait: .zero)).run { await sleeper.yieldInTask() }
            #expect(run.value == 0)
            #expect(run.uncontrolled.isEmpty, "\(run.uncontrolled)")
            #expect(run.steps.contains { $0.job == "task 2" }, "\(run.lines)")
        }
    }

    @Test("sleeps handed to the runtime's C entry points wait on the virtual clock too")
    func runtimeEntryPoints() {
        let log = EventLog()
        let run = Scheduler(draw: Draw(seed: 1), options: .init(outsideWait: .zero)).runConcurrently([
            ScheduledBranch("delay") {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    enqueueGlobalWithDelay(20_000_000, createNullaryContinuationJob(0, unsafeBitCast(continuation, to: UnsafeRawPointer.self)))
                }
                log.append("delay 20")
            },
            ScheduledBranch("deadline") {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    let deadline = VirtualClock.now(clock: 1) + .milliseconds(10)
                    let (seconds, attoseconds) = deadline.components
                    enqueueGlobalWithDeadline(seconds, attoseconds / 1_000_000_000, 0, -1, 1,
                                              createNullaryContinuationJob(0, unsafeBitCast(continuation, to: UnsafeRawPointer.self)))
                }
                log.append("deadline 10")
            },
        ]).run
        #expect(log.events == ["deadline 10", "delay 20"])
        #expect(run.virtualTime == 20_000_000)
        #expect(run.uncontrolled.isEmpty)
    }
}
