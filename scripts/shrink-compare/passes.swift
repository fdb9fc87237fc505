// Where a shrink's evaluations go: per-pass attempts and improvements summed over seeds, for a
// few problems rebuilt here from the package's definitions (`--passes` in main.swift).
import GraphFuzzEngine

func passTable<T>(_ name: String, _ gen: Gen<T>, seeds: UInt64, holds: @escaping (T) -> Bool?) {
    var totals: [String: (runs: Int, attempts: Int, improvements: Int)] = [:]
    var order: [String] = []
    var stalled = 0
    for seed in 1...seeds {
        let test: (Draw) -> Outcome = { draw in
            let value = gen.generate(draw)
            if draw.isRejected { return .rejected }
            switch holds(value) {
            case nil: return .rejected
            case true?: return .pass
            case false?: return .fail(Failure(rule: "property", kind: .mismatch, message: "falsified"))
            }
        }
        guard let found = Search.run(SearchOptions(seed: seed, runs: 5000), test: test).failure else { continue }
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

func printPassTables(seeds: UInt64) {
    passTable("bound5", ShrinkingChallenge.bound5Problems, seeds: seeds) { ShrinkingChallenge.wrap16($0.joined().reduce(0, +)) < 5 * 256 }
    passTable("large_union_list", Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list().list(), seeds: seeds) { Set($0.joined()).count < 5 }
    passTable("reverse", Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list(), seeds: seeds) { $0.reversed() == $0 }
    passTable("calculator", Expression.gen, seeds: seeds) { e in e.hasNoLiteralZeroDivisor ? e.evaluate() != nil : nil }
    let positive = Gen<Int>.int(in: 1...Int(Int32.max))
    passTable("difference_must_not_be_zero", positive.zip(positive), seeds: seeds) { p in p.0 < 10 || p.0 != p.1 }
    passTable("difference_must_not_be_one", positive.zip(positive), seeds: seeds) { p in p.0 < 10 || abs(p.0 - p.1) != 1 }
    passTable("size_after_elements", DependentProblem.sizedAfter, seeds: seeds) { $0.elements.reduce(0, +) <= 10 }
    passTable("index_cycle", DependentProblem.indexList, seeds: seeds) { !DependentProblem.hasCycle($0) }
}
