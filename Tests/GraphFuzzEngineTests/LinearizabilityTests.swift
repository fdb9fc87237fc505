@testable import GraphFuzzEngine
import Testing

/// The concurrent step's verdict (`Linearizability`): which orders of the operations explain what they observed, the
/// states those orders leave, the closest order when none does, and the configurations the search visits.
@Suite("Linearizability: the orders that explain concurrent operations, their end states and the closest miss")
struct LinearizabilityTests {
    private let checker = Linearizability<Int>(equal: { $0 == $1 }, hash: { $1.combine($0) })

    /// An operation that sets the counter to `value`.
    private func write(_ value: Int, _ started: Int, _ finished: Int) -> LinearOperation<Int> {
        LinearOperation(explains: { model in model = value; return true }, started: started, finished: finished)
    }

    /// An operation that observed `value` and changes nothing.
    private func read(_ value: Int, _ started: Int, _ finished: Int) -> LinearOperation<Int> {
        LinearOperation(explains: { model in model == value }, started: started, finished: finished)
    }

    /// An operation that adds `amount`, whatever it found.
    private func add(_ amount: Int, _ started: Int, _ finished: Int) -> LinearOperation<Int> {
        LinearOperation(explains: { model in model += amount; return true }, started: started, finished: finished)
    }

    @Test("overlapping operations: the one order that explains them is found, and the state it leaves")
    func oneOrderExplains() {
        // The read began first, but only the write before it explains what it saw.
        let result = checker.check([write(1, 2, 6), read(1, 1, 5)], from: [0])
        #expect(result.order == [0, 1])
        #expect(result.ends == [1])
    }

    @Test("no order explains: the closest is the longest explained prefix, trying operations in the order they began")
    func closestMiss() throws {
        let result = checker.check([write(1, 1, 5), read(2, 2, 6)], from: [0])
        #expect(result.ends.isEmpty && result.order == nil)
        let closest = try #require(result.closest)
        #expect(closest.prefix == [0] && closest.failing == 1 && closest.model == 1 && closest.start == 0)
    }

    @Test("real time binds: an operation that finished before another started is never ordered after it")
    func realTimeOrder() {
        // The read saw 0, which only the order read, write explains: admissible while they overlap…
        #expect(checker.check([write(1, 1, 5), read(0, 2, 6)], from: [0]).ends == [1])
        // …but not once the write returned before the read began.
        let result = checker.check([write(1, 1, 2), read(0, 3, 6)], from: [0])
        #expect(result.ends.isEmpty && result.order == nil)
        #expect(Linearizability<Int>.admissibleOrders([write(1, 1, 2), read(0, 3, 6)]) == [[0, 1]])
    }

    @Test("every explaining order's end state is kept once, from every start state, in the order the search reached it")
    func endsFromEveryStart() {
        // Both orders of two additions end at the same state; from a second start state they end elsewhere.
        let result = checker.check([add(1, 1, 5), add(2, 2, 6)], from: [0, 10])
        #expect(result.ends == [3, 13])
        #expect(result.order == [0, 1] && result.orderStart == 0)
        // Two start states that one operation brings to the same configuration: its end is kept once.
        let joined = checker.check([write(7, 1, 5), read(7, 2, 6)], from: [0, 5])
        #expect(joined.ends == [7])
    }

    @Test("the memo: a configuration of two or more placed operations is explored once; one of a single operation is not memoised")
    func memoisedConfigurations() {
        // Three commuting additions: 1 root, 3 configurations of one operation, 3 of two (each reached by two
        // orders, explored once), 3 full ones (one from each configuration of two explored).
        let triple = checker.check([add(1, 1, 9), add(2, 2, 9), add(4, 3, 9)], from: [0])
        #expect(triple.ends == [7])
        #expect(triple.visited == 10)
        // Without a way to compare models, nothing is memoised: every admissible order is walked to its end.
        let unmemoised = Linearizability<Int>(equal: nil).check([add(1, 1, 9), add(2, 2, 9), add(4, 3, 9)], from: [0])
        #expect(unmemoised.visited == 1 + 3 + 6 + 6)
        #expect(unmemoised.ends == Array(repeating: 7, count: 6))
        // A pair: the root, both single placements and both full orders.
        #expect(checker.check([add(1, 1, 9), add(2, 2, 9)], from: [0]).visited == 5)
    }

    @Test("past maxEnds distinct end states the result says truncated and keeps the first ones")
    func truncatedEnds() {
        let small = Linearizability<Int>(equal: { $0 == $1 }, hash: { $1.combine($0) }, maxEnds: 2)
        let result = small.check([add(1, 1, 9)], from: [0, 10, 20])
        #expect(result.ends == [1, 11])
        #expect(result.truncated)
    }
}
