// Measures GraphFuzz on the shrinking challenge and the dependent-generator problems: for each
// problem, over seeds 1...N, how many shrinks reached the known minimum and the mean evaluations.
// Built by graphfuzz.sh together with the problem definitions from the package; not part of it.
import Foundation
import GraphFuzzEngine

let arguments = CommandLine.arguments.dropFirst()
var seeds: UInt64 = 100
var names: [String] = []
var showPasses = false
var traceSeed: UInt64?
var iterator = arguments.makeIterator()
while let argument = iterator.next() {
    if argument == "--passes" { showPasses = true; continue }
    if argument == "--trace", let value = iterator.next().flatMap({ UInt64($0) }) { traceSeed = value; continue }
    if argument == "--seeds", let value = iterator.next().flatMap({ UInt64($0) }) { seeds = value } else { names.append(argument) }
}

struct Row { var name: String; var run: (UInt64) -> (isMinimal: Bool, shrinkAttempts: Int, counterexample: String)? }
var rows = ShrinkingChallenge.allCases.map { challenge in
    Row(name: challenge.rawValue, run: { challenge.run(seed: $0).map { ($0.isMinimal, $0.shrinkAttempts, $0.counterexample) } })
}
rows += DependentProblem.allCases.map { problem in
    Row(name: problem.rawValue, run: { problem.run(seed: $0).map { ($0.isMinimal, $0.shrinkAttempts, $0.counterexample) } })
}

if let seed = traceSeed {
    traceProblem(names.first ?? "reverse", seed: seed)
    exit(0)
}
if showPasses {
    printPassTables(seeds: seeds, only: names)
    exit(0)
}
print("# graphfuzz, seeds 1-\(seeds)")
for row in rows where names.isEmpty || names.contains(row.name) {
    var found = 0, minimal = 0, total = 0
    var misses: [UInt64] = []
    var example = ""
    for seed in 1...seeds {
        guard let result = row.run(seed) else { continue }
        found += 1
        total += result.shrinkAttempts
        if result.isMinimal { minimal += 1 } else if misses.count < 5 {
            misses.append(seed)
            if example.isEmpty { example = result.counterexample }
        }
    }
    let mean = Double(total) / Double(Swift.max(found, 1))
    let missText = misses.isEmpty ? "" : "\tnot minimal e.g. seeds \(misses): \(example)"
    print("\(row.name)\t\(minimal)/\(found)\t\((mean * 100).rounded() / 100)\(missText)")
}
