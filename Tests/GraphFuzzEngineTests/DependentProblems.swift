import GraphFuzzEngine

/// Shrinking problems where later values depend on earlier ones, each with a known minimum. A
/// single-choice edit does not get out of their local minima: deleting an element breaks an
/// assumption unless another value changes with it, a bound taken from an earlier value moves, and
/// a filter's rejected tries stay in the case (lowering the value a filter depends on can make a
/// rejected try pass, which changes the value). The engine tests check them; scripts/shrink-compare
/// measures them beside the challenge.
enum DependentProblem: String, CaseIterable, Sendable {
    /// Every element indexes into its list (is below its length); the property fails when
    /// following the indices from some element runs round a cycle of two or more elements.
    /// Minimum: [1, 0].
    case indexCycle = "index_cycle"
    /// A parent key in -10...10, a child key at or above it, and a later value: fails when the child
    /// is at least 5 above its parent and the later value is at least 7. Minimum: (0, 5, 7).
    case parentChild = "parent_child"
    /// A list, then its size drawn after it (assumed equal to the length): fails when the elements
    /// sum above 10. Minimum: [11] with size 1.
    case sizeAfterElements = "size_after_elements"
    /// Sorted keys: each key drawn at or above the one before it (up to 1000); fails when the last
    /// key is at least 100 above the first and there are at least three keys. Minimum: [0, 0, 100].
    case sortedKeys = "sorted_keys"
    /// A list of 0…10 of at most ten elements, kept only when every element indexes into it
    /// (`Gen.filter` over the whole list: a case may hold several rejected lists); fails when two
    /// elements point at each other. Minimum: [1, 0].
    case filteredIndices = "filtered_indices"
    /// A divisor in 1…20, then a value in 0…1000 kept only when the divisor divides it (a filter
    /// that depends on an earlier draw); fails when the divisor is at least 2 and the value at least
    /// 100. Minimum: (2, 100).
    case multipleOf = "multiple_of"
    /// A floor in 0…100, then up to eight values in 0…1000, each kept only when above the floor;
    /// fails when there are three or more values and they sum above 500. Minimum: floor 0, [1, 1, 499].
    case aboveFloor = "above_floor"

    struct Result: Sendable {
        var counterexample: String
        var isMinimal: Bool
        var shrinkAttempts: Int
    }

    /// Searches with `seed` and shrinks; nil when no counterexample was found within `runs` cases.
    func run(seed: UInt64, runs: Int = 5000) -> Result? {
        switch self {
        case .indexCycle:
            return Self.solve(Self.indexList, seed, runs, holds: { !Self.hasCycle($0) }, minimal: { $0 == [1, 0] })
        case .parentChild:
            return Self.solve(Self.parentChildKeys, seed, runs, holds: { k in !(k.child >= k.parent + 5 && k.later >= 7) },
                              minimal: { $0 == (0, 5, 7) })
        case .sizeAfterElements:
            return Self.solve(Self.sizedAfter, seed, runs, holds: { $0.elements.reduce(0, +) <= 10 },
                              minimal: { $0.elements == [11] && $0.size == 1 })
        case .sortedKeys:
            return Self.solve(Self.sortedKeyList, seed, runs, holds: { keys in !(keys.count >= 3 && keys.last! - keys.first! >= 100) },
                              minimal: { $0 == [0, 0, 100] })
        case .filteredIndices:
            return Self.solve(Self.filteredIndexList, seed, runs, holds: { !Self.hasTwoCycle($0) }, minimal: { $0 == [1, 0] })
        case .multipleOf:
            return Self.solve(Self.multiples, seed, runs, holds: { !($0.divisor >= 2 && $0.value >= 100) },
                              minimal: { $0 == (2, 100) })
        case .aboveFloor:
            return Self.solve(Self.valuesAboveFloor, seed, runs, holds: { !($0.values.count >= 3 && $0.values.reduce(0, +) > 500) },
                              minimal: { $0.floor == 0 && $0.values == [1, 1, 499] })
        }
    }

    /// Lists of 0...20 whose elements all index into the list.
    static let indexList: Gen<[Int]> = Gen<Int>.int(in: 0...20).list(maxCount: 20).assume { list in list.allSatisfy { $0 < list.count } }

    static func hasCycle(_ list: [Int]) -> Bool {
        for start in list.indices {
            var position = list[start], steps = 1
            while steps <= list.count && position != start {
                position = list[position]
                steps += 1
            }
            if position == start && steps >= 2 { return true }
        }
        return false
    }

    static let parentChildKeys: Gen<(parent: Int, child: Int, later: Int)> = Gen<Int>.int(in: -10...10)
        .flatMap { parent in Gen.zip(Gen<Int>.int(in: parent...Int.max), Gen<Int>.int(in: 0...100)).map { (parent, $0.0, $0.1) } }

    static let sizedAfter: Gen<(elements: [Int], size: Int)> = Gen.zip(Gen<Int>.int(in: 0...100).list(maxCount: 30), Gen<Int>.int(in: 0...50))
        .map { (elements: $0.0, size: $0.1) }
        .assume { $0.size == $0.elements.count }

    static let sortedKeyList: Gen<[Int]> = Gen { draw in
        var keys: [Int] = []
        while keys.count < 10 {
            draw.beginSpan(.element)
            defer { draw.endSpan() }
            guard draw.chooseBool(probability: 0.8) else { break }
            keys.append(draw.int(in: (keys.last ?? 0)...1000))
        }
        return keys
    }

    static let filteredIndexList: Gen<[Int]> = Gen<Int>.int(in: 0...10).list(maxCount: 10).filter { list in
        list.allSatisfy { $0 < list.count }
    }

    static func hasTwoCycle(_ list: [Int]) -> Bool {
        list.indices.contains { i in list[i] != i && list[list[i]] == i }
    }

    static let multiples: Gen<(divisor: Int, value: Int)> = Gen<Int>.int(in: 1...20)
        .flatMap { divisor in Gen<Int>.int(in: 0...1000).filter { $0 % divisor == 0 }.map { (divisor, $0) } }

    static let valuesAboveFloor: Gen<(floor: Int, values: [Int])> = Gen<Int>.int(in: 0...100)
        .flatMap { floor in Gen<Int>.int(in: 0...1000).filter { $0 > floor }.list(maxCount: 8).map { (floor, $0) } }

    static func solve<T>(_ gen: Gen<T>, _ seed: UInt64, _ runs: Int, holds: @escaping (T) -> Bool?, minimal: (T) -> Bool) -> Result? {
        guard let found = Property.counterexample(gen, seed: seed, runs: runs, holds) else { return nil }
        return Result(counterexample: "\(found.value)", isMinimal: minimal(found.value), shrinkAttempts: found.shrinkAttempts)
    }
}
