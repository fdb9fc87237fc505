import GraphFuzzEngine
import GraphFuzzTesting
import Testing

// docs/guide.md prints the code between the markers as it is here; GuideTests checks that it does, and
// GuideSnippetTests compiles it outside the package, as an app would.
// BEGIN GUIDE: commands
/// A cart of item counts (planted bug: removing an item the cart lacks counts it below zero).
struct Cart {
    private(set) var counts: [Int: Int] = [:]
    mutating func add(_ item: Int, quantity: Int) { counts[item, default: 0] += quantity }
    mutating func remove(_ item: Int) { counts[item, default: 0] -= 1 }
    var total: Int { counts.values.reduce(0, +) }
}

/// A step of the cart machine.
enum CartCommand {
    case add(item: Int, quantity: Int)
    case remove(item: Int)
    case total
}

/// Each action draws a command; the rules are one switch over the commands, and so is the cart's side.
struct CartMachine: StateMachine {
    typealias Model = [Int]  // how many of each of the four items the cart holds
    typealias System = Cart

    func makeModel(_ config: NoConfig) -> [Int] { [0, 0, 0, 0] }
    func makeSystem(_ config: NoConfig) -> Cart { Cart() }

    var actions: [Action<Self>] {
        [Action("add", weight: 3, arguments: { args, _ in CartCommand.add(item: args.int("item", in: 0...3), quantity: args.int("quantity", in: 1...5)) },
                predict: predict, perform: perform),
         Action("remove", arguments: { args, _ in CartCommand.remove(item: args.int("item", in: 0...3)) }, predict: predict, perform: perform),
         Action("total", arguments: { _, _ in CartCommand.total }, predict: predict, perform: perform)]
    }

    func predict(_ command: CartCommand, _ counts: inout [Int]) -> Prediction<Int> {
        switch command {
        case .add(let item, let quantity):
            counts[item] += quantity
            return Prediction(counts[item], rule: "add counts up")
        case .remove(let item):
            counts[item] = max(0, counts[item] - 1)
            return Prediction(counts[item], rule: "remove stops at zero")
        case .total:
            return Prediction(counts.reduce(0, +), rule: "total sums the counts")
        }
    }

    func perform(_ command: CartCommand, _ cart: inout Cart) -> Int {
        switch command {
        case .add(let item, let quantity):
            cart.add(item, quantity: quantity)
            return cart.counts[item, default: 0]
        case .remove(let item):
            cart.remove(item)
            return cart.counts[item, default: 0]
        case .total:
            return cart.total
        }
    }
}
// END GUIDE: commands

// BEGIN GUIDE: coded commands
extension CartCommand: TraceCodable {
    var trace: TraceStep {
        switch self {
        case .add(let item, let quantity): TraceStep("add", [.init("item", .int(item)), .init("quantity", .int(quantity))])
        case .remove(let item): TraceStep("remove", [.init("item", .int(item))])
        case .total: TraceStep("total")
        }
    }

    init(trace step: TraceStep) throws(TraceError) {
        switch step.name {
        case "add": self = .add(item: try step.int("item", in: 0...3), quantity: try step.int("quantity", in: 1...5))
        case "remove": self = .remove(item: try step.int("item", in: 0...3))
        case "total": self = .total
        default: throw TraceError("unknown cart command '\(step.name)'")
        }
    }
}

/// The same rules, each command drawn whole: it writes its own trace, and reads itself back from a saved case.
struct CodedCartMachine: StateMachine {
    let cart = CartMachine()

    func makeModel(_ config: NoConfig) -> [Int] { cart.makeModel(config) }
    func makeSystem(_ config: NoConfig) -> Cart { cart.makeSystem(config) }

    var actions: [Action<Self>] {
        func coded(_ name: String, weight: UInt32 = 1, _ draw: @escaping (Draw) -> CartCommand) -> Action<Self> {
            Action(name, weight: weight, arguments: { args, _ in try args.coded { draw($0) } }, predict: cart.predict, perform: cart.perform)
        }
        return [coded("add", weight: 3) { .add(item: $0.int(in: 0...3), quantity: $0.int(in: 1...5)) },
                coded("remove") { .remove(item: $0.int(in: 0...3)) },
                coded("total") { _ in .total }]
    }
}
// END GUIDE: coded commands

@Suite("the guide's machines over commands")
struct GuideCommands {
    /// Both forms find the planted bug and shrink it to the one step that shows it, printed the same.
    @Test func cart() throws {
        var results: [CheckResult] = []
        withKnownIssue("expected: the guide's planted cart bug is found") {
            results.append(GraphFuzzTest.check(CartMachine(), name: "cart"))
            results.append(GraphFuzzTest.check(CodedCartMachine(), name: "coded cart"))
        }
        #expect(results.count == 2)
        for check in results {
            #expect(check.failedRules == ["remove stops at zero"])
            let record = try #require(check.failures.first?.counterexample)
            #expect(record.steps.map(\.description) == ["remove(item: 0)"])
            #expect(record.expectations == ["0 [remove stops at zero]"])
        }
    }

    /// A coded command reads back every trace it writes, and a trace that names no command says which.
    @Test func codedTraces() throws {
        for command in [CartCommand.add(item: 3, quantity: 5), .remove(item: 1), .total] {
            #expect(try CartCommand(trace: command.trace).trace == command.trace)
        }
        #expect(throws: TraceError("unknown cart command 'empty'")) { try CartCommand(trace: TraceStep("empty")) }
        #expect(throws: TraceError.self) { try CartCommand(trace: TraceStep("remove", [.init("item", .int(4))])) }
    }
}
