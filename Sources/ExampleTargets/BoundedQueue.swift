package import FaultPoints

/// A fixed-capacity FIFO ring buffer: the system under test of the example `queue` target.
public struct BoundedQueue: Sendable {
    public let capacity: Int
    private var storage: [Int]
    private var head = 0
    public private(set) var count = 0
    /// Whether the ring thinks itself full one value late (fault `offByOne`), read once at initialisation.
    private let fullOneLate: Bool

    public init(capacity: Int) { self.init(capacity: capacity, faults: .shipped) }

    /// A queue running with `faults` (the example target's mutants).
    package init(capacity: Int, faults: Faults<BoundedQueue>) {
        precondition(capacity > 0, "a queue needs a capacity of at least 1")
        self.capacity = capacity
        self.storage = Array(repeating: 0, count: capacity)
        fullOneLate = faults.contains(.offByOne)
    }

    /// Appends `value`; false when the queue is full.
    public mutating func push(_ value: Int) -> Bool {
        let full = fullOneLate ? count == capacity + 1 : count == capacity
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

extension Fault<BoundedQueue> {
    /// Mutant `queue-off-by-one`: the ring decides it is full one value late, overwriting the oldest.
    package static var offByOne: Self { Self() }
}
