import Dispatch
import Foundation

/// Runs an async burst to completion from synchronous code (the engine is synchronous), on its own
/// executor so that blocking the calling thread cannot starve the cooperative thread pool.
final class BurstRunner: @unchecked Sendable {
    private let queue = DispatchQueue(label: "graphfuzz.cache.burst", attributes: .concurrent)

    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        if #available(macOS 15.0, *) {
            Task(executorPreference: QueueExecutor(queue: queue)) {
                box.value = await body()
                done.signal()
            }
        } else {
            Task.detached {
                box.value = await body()
                done.signal()
            }
        }
        done.wait()
        return box.value!
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}

/// A task executor over a dispatch queue.
@available(macOS 15.0, *)
private final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    let queue: DispatchQueue
    init(queue: DispatchQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
