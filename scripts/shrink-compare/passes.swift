// Where a shrink's evaluations go: per-pass attempts and improvements summed over seeds, for a
// few problems rebuilt here from the package's definitions (`--passes` in main.swift).
import GraphFuzzEngine

enum GraphFuzzPasses {
    static func passTable<T>(_ name: String, _ gen: Gen<T>, seeds: UInt64, holds: @escaping (T) -> Bool?) {
        var totals: [String: (runs: Int, attempts: Int, improvements: Int)] = [:]
        var order: [String] = []
        var stalled = 0
        for seed in 1...seeds {
            let test: (Draw) -> Outcome = { draw in propertyOutcome(gen, holds, draw).outcome }
            guard let found = Property.search(SearchOptions(seed: seed, runs: 5000), test: test).failure else { continue }
            if found.shrink.stalled { stalled += 1 }
            for pass in found.shrink.passes {
                if totals[pass.pass] == nil { order.append(pass.pass) }
                let t = totals[pass.pass] ?? (0, 0, 0)
                totals[pass.pass] = (t.runs + pass.runs, t.attempts + pass.attempts, t.improvements + pass.improvements)
            }
        }
        print("## \(name): stalled \(stalled)")
        for pass in order {
            let t = totals[pass]!
            print("  \(pass)\truns \(t.runs)\tattempts \(t.attempts)\timprovements \(t.improvements)")
        }
    }
}

/// Runs one case of a property (as `Property.counterexample` does): its outcome and the value.
func propertyOutcome<T>(_ gen: Gen<T>, _ holds: (T) -> Bool?, _ draw: Draw) -> (outcome: Outcome, value: T) {
    let value = gen.generate(draw)
    if draw.isRejected { return (.rejected, value) }
    switch holds(value) {
    case nil: return (.rejected, value)
    case true?: return (.pass, value)
    case false?: return (.fail(Failure(rule: "property", kind: .mismatch, message: "falsified")), value)
    }
}

func printPassTables(seeds: UInt64, only names: [String]) {
    func passTable<T>(_ name: String, _ gen: Gen<T>, seeds: UInt64, holds: @escaping (T) -> Bool?) {
        if names.isEmpty || names.contains(name) { GraphFuzzPasses.passTable(name, gen, seeds: seeds, holds: holds) }
    }
    passTable("bound5", ShrinkingChallenge.bound5Problems, seeds: seeds) { ShrinkingChallenge.wrap16($0.joined().reduce(0, +)) < 5 * 256 }
    passTable("large_union_list", Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list().list(), seeds: seeds) { Set($0.joined()).count < 5 }
    passTable("reverse", Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list(), seeds: seeds) { $0.reversed() == $0 }
    passTable("calculator", Expression.gen, seeds: seeds) { e in e.hasNoLiteralZeroDivisor ? e.evaluate() != nil : nil }
    let positive = Gen<Int>.int(in: 1...Int(Int32.max))
    passTable("difference_must_not_be_zero", positive.zip(positive), seeds: seeds) { p in p.0 < 10 || p.0 != p.1 }
    passTable("difference_must_not_be_one", positive.zip(positive), seeds: seeds) { p in p.0 < 10 || abs(p.0 - p.1) != 1 }
    passTable("size_after_elements", DependentProblem.sizedAfter, seeds: seeds) { $0.elements.reduce(0, +) <= 10 }
    passTable("index_cycle", DependentProblem.indexList, seeds: seeds) { !DependentProblem.hasCycle($0) }
    passTable("sorted_keys", DependentProblem.sortedKeyList, seeds: seeds) { keys in !(keys.count >= 3 && keys.last! - keys.first! >= 100) }
    passTable("filtered_indices", DependentProblem.filteredIndexList, seeds: seeds) { !DependentProblem.hasTwoCycle($0) }
    passTable("multiple_of", DependentProblem.multiples, seeds: seeds) { !($0.divisor >= 2 && $0.value >= 100) }
    passTable("above_floor", DependentProblem.valuesAboveFloor, seeds: seeds) { !($0.values.count >= 3 && $0.values.reduce(0, +) > 500) }
}

/// Prints every shrink evaluation of one seed: the choices run and how it ended (`--trace`).
func traceShrink<T>(_ gen: Gen<T>, seed: UInt64, holds: @escaping (T) -> Bool?) {
    var failed = false
    let test: (Draw) -> Outcome = { draw in
        let (outcome, value) = propertyOutcome(gen, holds, draw)
        let ending: String
        switch outcome {
        case .fail: ending = "FAIL"
        case .pass: ending = "pass"
        case .rejected: ending = "rej "
        case .harnessFault: ending = "harn"
        }
        if failed || ending == "FAIL" { print("\(ending)  [\(draw.choices.map(String.init).joined(separator: " "))]  \(value)") }
        if ending == "FAIL" { failed = true }
        return outcome
    }
    guard let found = Property.search(SearchOptions(seed: seed, runs: 5000), test: test).failure else { return }
    for pass in found.shrink.passes where pass.attempts > 0 { print("  \(pass.pass): \(pass.attempts) attempts, \(pass.improvements) improvements") }
    print("attempts \(found.shrink.attempts), skipped \(found.shrink.skipped)")
}

func traceProblem(_ name: String, seed: UInt64) {
    switch name {
    case "reverse": traceShrink(Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list(), seed: seed) { $0.reversed() == $0 }
    case "calculator": traceShrink(Expression.gen, seed: seed) { e in e.hasNoLiteralZeroDivisor ? e.evaluate() != nil : nil }
    case "size_after_elements": traceShrink(DependentProblem.sizedAfter, seed: seed) { $0.elements.reduce(0, +) <= 10 }
    case "index_cycle": traceShrink(DependentProblem.indexList, seed: seed) { !DependentProblem.hasCycle($0) }
    case "bound5": traceShrink(ShrinkingChallenge.bound5Problems, seed: seed) { ShrinkingChallenge.wrap16($0.joined().reduce(0, +)) < 5 * 256 }
    case "large_union_list": traceShrink(Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list().list(), seed: seed) { Set($0.joined()).count < 5 }
    case "sorted_keys": traceShrink(DependentProblem.sortedKeyList, seed: seed) { keys in !(keys.count >= 3 && keys.last! - keys.first! >= 100) }
    case "filtered_indices": traceShrink(DependentProblem.filteredIndexList, seed: seed) { !DependentProblem.hasTwoCycle($0) }
    case "multiple_of": traceShrink(DependentProblem.multiples, seed: seed) { !($0.divisor >= 2 && $0.value >= 100) }
    case "above_floor": traceShrink(DependentProblem.valuesAboveFloor, seed: seed) { !($0.values.count >= 3 && $0.values.reduce(0, +) > 500) }
    default: print("no trace for \(name)")
    }
}
