import GraphFuzzEngine

/// Shrinking problems where later values depend on earlier ones, each with a known minimum. A
/// single-choice edit does not get out of their local minima: deleting an element breaks an
/// assumption unless another value changes with it, and a bound taken from an earlier value moves.
/// The engine tests check them; scripts/shrink-compare measures them beside the challenge.
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

    static func solve<T>(_ gen: Gen<T>, _ seed: UInt64, _ runs: Int, holds: @escaping (T) -> Bool?, minimal: (T) -> Bool) -> Result? {
        guard let found = Property.counterexample(gen, seed: seed, runs: runs, holds) else { return nil }
        return Result(counterexample: "\(found.value)", isMinimal: minimal(found.value), shrinkAttempts: found.shrinkAttempts)
    }
}
