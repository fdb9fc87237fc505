/// One operation of a concurrent history as the linearizability check sees it: whether the specification,
/// stepped from a model, predicts what the operation observed, and when it ran.
@usableFromInline
struct LinearOperation<Model> {
    /// Predicts the operation on `model` (advancing it) and says whether the prediction allows what the
    /// operation observed.
    @usableFromInline let explains: (inout Model) -> Bool
    /// The scheduler's steps during which the operation began and returned. `a` precedes `b` in real time
    /// when `a.finished < b.started`; an order that puts `b` first is not admissible.
    @usableFromInline let started: Int
    @usableFromInline let finished: Int

    @inlinable
    init(explains: @escaping (inout Model) -> Bool, started: Int, finished: Int) {
        self.explains = explains
        self.started = started
        self.finished = finished
    }
}

/// Whether the observations of concurrent operations equal what the specification predicts for some order
/// of them that respects their real-time order (Herlihy and Wing's linearizability), and every state such an
/// order leaves the model in.
///
/// The search is Wing and Gong's: a depth-first walk that appends one operation whose real-time predecessors
/// are all placed, steps the model, and backtracks at the first prediction that does not allow what was
/// observed. With Lowe's memoisation a configuration — the set of operations placed and the model they left —
/// is explored once, so the search is polynomial in the number of distinct configurations rather than
/// factorial in the operations; it needs models that can be compared (`equal`, and `hash` to look them up in
/// a set). Without either, small groups are searched exhaustively (a group of 3 has at most 6 orders).
///
/// Every explaining order is followed to its end (configurations already seen aside), because later steps
/// must be checked against every state the system may be in: `ends` holds those states, deduplicated when
/// models can be compared, in the order the search reached them.
///
/// Inlinable, with the concurrent step: specialised for the machine's model where its step loop is compiled.
@usableFromInline
struct Linearizability<Model> {
    /// Compares two models (nil: models cannot be compared; nothing is deduplicated or memoised).
    @usableFromInline let equal: ((Model, Model) -> Bool)?
    /// Hashes a model for the memo (nil: configurations are compared one by one among those with the same
    /// placed operations).
    @usableFromInline let hash: ((Model, inout Hasher) -> Void)?
    /// The most end states kept; past it the result says `truncated`.
    @usableFromInline let maxEnds: Int

    @inlinable
    init(equal: ((Model, Model) -> Bool)?, hash: ((Model, inout Hasher) -> Void)? = nil, maxEnds: Int = 64) {
        self.equal = equal
        self.hash = hash
        self.maxEnds = maxEnds
    }

    /// What the search found.
    @usableFromInline
    struct Result {
        /// The states of the model after every explaining order (empty: no order explains the observations).
        @usableFromInline var ends: [Model] = []
        /// The first explaining order found (indices into the operations), and the start state it began from.
        @usableFromInline var order: [Int]?
        @usableFromInline var orderStart = 0
        /// When no order explains: the order that explains the longest prefix (the first such found, trying
        /// operations in the order they began: an actor serves calls in the order they reach it), the operation
        /// after that prefix whose observation its prediction does not allow, the model before it, and the start
        /// state it began from.
        @usableFromInline var closest: (prefix: [Int], failing: Int, model: Model, start: Int)?
        /// More explaining end states than `maxEnds`: `ends` holds the first ones only.
        @usableFromInline var truncated = false
        /// Configurations visited (the search's work, for measurements).
        @usableFromInline var visited = 0

        @inlinable
        init() {}
    }

    /// Searches the orders of `operations` from each state in `starts` (the states earlier steps may have left).
    @inlinable
    func check(_ operations: [LinearOperation<Model>], from starts: [Model]) -> Result {
        precondition(operations.count <= 32, "a concurrent group has at most 32 operations")
        if operations.count == 1 { return lone(operations[0], from: starts) }
        var search = Search(operations: operations, checker: self)
        for index in 0..<starts.count {
            search.start = index
            search.walk(mask: 0, model: starts[index], prefix: [])
        }
        return search.result
    }

    /// A lone operation's search, without setting up a walk: its only order is itself, one prediction per start
    /// state (what the walk finds for it, its `visited` count included).
    @inlinable
    func lone(_ operation: LinearOperation<Model>, from starts: [Model]) -> Result {
        var result = Result()
        for index in 0..<starts.count {
            result.visited += 1
            var next = starts[index]
            guard operation.explains(&next) else {
                if result.order == nil, result.closest == nil { result.closest = ([], 0, starts[index], index) }
                continue
            }
            result.visited += 1
            if result.order == nil {
                result.order = [0]
                result.orderStart = index
            }
            result.record(next, self)
        }
        return result
    }

    /// `mask`'s operations' real-time predecessors: bit `a` of `predecessors[b]` when `a` finished before `b` started.
    @inlinable
    static func predecessors(_ operations: [LinearOperation<Model>]) -> [UInt32] {
        // Index loops: this runs for every concurrent step of two or more branches.
        var masks = [UInt32](repeating: 0, count: operations.count)
        for b in 0..<operations.count {
            let started = operations[b].started
            for a in 0..<operations.count where operations[a].finished < started { masks[b] |= 1 << UInt32(a) }
        }
        return masks
    }

    /// Every order of the operations that respects real time (for messages: a group of a few operations).
    static func admissibleOrders(_ operations: [LinearOperation<Model>]) -> [[Int]] {
        let before = predecessors(operations)
        var orders: [[Int]] = []
        func extend(_ order: [Int], _ mask: UInt32) {
            if order.count == operations.count { orders.append(order); return }
            for b in operations.indices where mask & (1 << UInt32(b)) == 0 && before[b] & ~mask == 0 {
                extend(order + [b], mask | 1 << UInt32(b))
            }
        }
        extend([], 0)
        return orders
    }

    @usableFromInline
    struct Search {
        @usableFromInline let operations: [LinearOperation<Model>]
        @usableFromInline let checker: Linearizability
        @usableFromInline let before: [UInt32]
        /// The operations in the order they began (then by index): tried in this order, so the first order found,
        /// explaining or closest, is the one nearest to what the run did (an actor serves calls in arrival order).
        @usableFromInline let tryOrder: [Int]
        @usableFromInline let full: UInt32
        @usableFromInline var start = 0
        @usableFromInline var result = Result()
        /// Configurations seen, by placed operations: hashed (`hash`) or listed (`equal` alone).
        @usableFromInline var seenHashed: Set<Configuration> = []
        @usableFromInline var seenListed: [UInt32: [Model]] = [:]

        @inlinable
        init(operations: [LinearOperation<Model>], checker: Linearizability) {
            self.operations = operations
            self.checker = checker
            before = Linearizability.predecessors(operations)
            tryOrder = operations.indices.sorted { (operations[$0].started, $0) < (operations[$1].started, $1) }
            full = operations.count == 32 ? .max : (1 << UInt32(operations.count)) - 1
        }

        /// A configuration in the memo: the placed operations and the model's hash, compared by the model.
        @usableFromInline
        struct Configuration: Hashable {
            @usableFromInline let mask: UInt32
            @usableFromInline let hashValueOfModel: Int
            @usableFromInline let model: Model
            @usableFromInline let equal: (Model, Model) -> Bool

            @inlinable
            init(mask: UInt32, hashValueOfModel: Int, model: Model, equal: @escaping (Model, Model) -> Bool) {
                self.mask = mask
                self.hashValueOfModel = hashValueOfModel
                self.model = model
                self.equal = equal
            }

            @inlinable
            static func == (a: Configuration, b: Configuration) -> Bool {
                a.mask == b.mask && a.hashValueOfModel == b.hashValueOfModel && a.equal(a.model, b.model)
            }

            @inlinable
            func hash(into hasher: inout Hasher) {
                hasher.combine(mask)
                hasher.combine(hashValueOfModel)
            }
        }

        /// Whether the configuration was seen before (and remembers it).
        @inlinable
        mutating func seen(_ mask: UInt32, _ model: Model) -> Bool {
            guard let equal = checker.equal else { return false }
            if let hash = checker.hash {
                var hasher = Hasher()
                hash(model, &hasher)
                return !seenHashed.insert(Configuration(mask: mask, hashValueOfModel: hasher.finalize(), model: model, equal: equal)).inserted
            }
            if seenListed[mask, default: []].contains(where: { equal($0, model) }) { return true }
            seenListed[mask, default: []].append(model)
            return false
        }

        @inlinable
        mutating func walk(mask: UInt32, model: Model, prefix: [Int]) {
            result.visited += 1
            if mask == full {
                if result.order == nil {
                    result.order = prefix
                    result.orderStart = start
                }
                record(model)
                return
            }
            for b in tryOrder where mask & (1 << UInt32(b)) == 0 && before[b] & ~mask == 0 {
                var next = model
                guard operations[b].explains(&next) else {
                    if result.order == nil, prefix.count > (result.closest?.prefix.count ?? -1) {
                        result.closest = (prefix, b, model, start)
                    }
                    continue
                }
                let placed = mask | 1 << UInt32(b)
                // A full configuration ends the walk: `record` keeps its model once (compared, as the memo would),
                // so hashing it into the memo would only cost. A lone operation's search is then one prediction
                // per start state. A configuration of one placed operation is reached once from each start state
                // (only another start state can lead to it again, and what follows it is memoised from the next
                // operation on), so it is not memoised either: a pair's search hashes no model.
                if placed != full, placed.nonzeroBitCount > 1, seen(placed, next) { continue }
                walk(mask: placed, model: next, prefix: prefix + [b])
            }
        }

        @inlinable
        mutating func record(_ model: Model) { result.record(model, checker) }
    }
}

extension Linearizability.Result {
    /// Keeps an explaining order's end state once (when models can be compared), at most `checker.maxEnds` of them.
    @inlinable
    mutating func record(_ model: Model, _ checker: Linearizability) {
        if let equal = checker.equal, ends.contains(where: { equal($0, model) }) { return }
        guard ends.count < checker.maxEnds else {
            truncated = true
            return
        }
        ends.append(model)
    }
}

extension Linearizability {
    /// A checker for `Model`, comparing and memoising states when the model is `Equatable` (looked up in a
    /// set when it is also `Hashable`).
    static func forModel(_ type: Model.Type) -> Linearizability {
        let probe = ModelComparison<Model>()
        return Linearizability(equal: probe.equal, hash: probe.hash)
    }
}

/// Equality and hashing of a model type that may or may not conform to `Equatable` / `Hashable`, found at run
/// time (a machine's `Model` carries no such requirement).
struct ModelComparison<Model> {
    var equal: ((Model, Model) -> Bool)? {
        guard Model.self is any Equatable.Type else { return nil }
        return { a, b in
            let equatable = a as! any Equatable
            return sameValue(equatable, b)
        }
    }

    var hash: ((Model, inout Hasher) -> Void)? {
        guard Model.self is any Hashable.Type else { return nil }
        return { model, hasher in
            let hashable = model as! any Hashable
            hashable.hash(into: &hasher)
        }
    }
}

/// Whether `b` is a value of `a`'s type equal to it.
private func sameValue<E: Equatable>(_ a: E, _ b: Any) -> Bool { (b as? E) == a }
