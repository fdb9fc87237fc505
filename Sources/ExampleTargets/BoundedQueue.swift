/// A fixed-capacity FIFO ring buffer: the system under test of the example `queue` target.
public struct BoundedQueue: Sendable {
    /// Where the ring decides it is full: `.correct`, or the off-by-one of the `queue-off-by-one` mutant.
    public enum FullCheck: Sendable { case correct, offByOne }

    public let capacity: Int
    private var storage: [Int]
    private var head = 0
    public private(set) var count = 0
    private let fullCheck: FullCheck

    public init(capacity: Int, fullCheck: FullCheck = .correct) {
        precondition(capacity > 0, "a queue needs a capacity of at least 1")
        self.capacity = capacity
        self.storage = Array(repeating: 0, count: capacity)
        self.fullCheck = fullCheck
    }

    /// Appends `value`; false when the queue is full.
    public mutating func push(_ value: Int) -> Bool {
        let full = fullCheck == .correct ? count == capacity : count == capacity + 1
        if full { return false }
        storage[(head + count) % capacity] = value
        count += 1
        return true
    }

    /// Removes and returns the oldest value; nil when empty.
    public mutating func pop() -> Int? {
        guard count > 0 else { return nil }
        let value = storage[head]
        head = (head + 1) % capacity
        count -= 1
        return value
    }
}
