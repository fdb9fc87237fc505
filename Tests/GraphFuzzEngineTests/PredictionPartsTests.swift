import GraphFuzzEngine
import Testing

/// A dial's reading: its level and the mode the level puts it in, and a trap the system recorded instead of
/// crashing.
private struct Reading: Equatable, CustomStringConvertible, ObservationParts {
    var level: Int
    var mode: String
    var trap: String?

    var parts: [(label: String, value: String)] { [("level", "\(level)"), ("mode", mode)] + (trap.map { [("trap", $0)] } ?? []) }
    var trapCode: String? { trap }
    var description: String { "\(level) \(mode)" + (trap.map { " trap \($0)" } ?? "") }
}

/// A dial turned up: D1 decides the level, D2 the mode (hot above 4). Its system can be planted with a fault
/// in one part. `turn` refuses to turn past 9 (no arguments fit), and its `disk` configuration is traced only
/// when set.
private struct DialMachine: StateMachine {
    enum Fault { case none, level, mode, trap, arguments }
    struct Config { var disk: Bool }
    struct Unreadable: Error {}
    let fault: Fault

    func makeConfig(_ args: inout Arguments) -> Config { Config(disk: args.bool("disk", probability: 0.5, default: false)) }
    func makeModel(_ config: Config) -> Int { 0 }
    func makeSystem(_ config: Config) -> Int { 0 }

    var actions: [Action<Self>] {
        [Action("turn", arguments: { args, level in
                    if fault == .arguments { throw Unreadable() }
                    let by = args.int("by", in: 1...3)
                    try args.require(level + by <= 9)
                    return by
                },
                predict: { by, level in
                    level += by
                    return Prediction(Reading(level: level, mode: level > 4 ? "hot" : "cold"), rule: "D1").part("mode", rule: "D2")
                },
                perform: { by, level in
                    level += by
                    let mode = level > 4 ? "hot" : "cold"
                    switch fault {
                    case .none, .arguments: return Reading(level: level, mode: mode)
                    case .level: return Reading(level: level + 1, mode: mode)
                    case .mode: return Reading(level: level, mode: "off")
                    case .trap: return Reading(level: level, mode: mode, trap: "E7")
                    }
                })]
    }
}

@Suite("predictions with parts, arguments that do not fit, derived configuration traces")
struct PredictionPartsTests {
    static let turn = TraceStep("turn", [.init("by", .int(2))])

    fileprivate static func outcome(_ fault: DialMachine.Fault, steps: [TraceStep] = [turn]) throws -> Outcome {
        try AnyMachine(DialMachine(fault: fault)).replay(TraceStep("config"), steps).get().outcome
    }

    @Test("a mismatch is reported under the rule of the first part that differs, else the prediction's")
    func partRules() throws {
        #expect(try Self.outcome(.none) == .pass)
        let level = try #require(try Self.outcome(.level).failure)
        #expect(level.rule == "D1")
        #expect(level.kind == .mismatch)
        #expect(level.message == "turn(by: 2): expected 2 cold, observed 3 cold (its level differs)")
        let mode = try #require(try Self.outcome(.mode).failure)
        #expect(mode.rule == "D2")
        #expect(mode.message == "turn(by: 2): expected 2 cold, observed 2 off (its mode differs)")
    }

    @Test("a shrink candidate's mismatch has the described one's rule, kind, detail and step; its message is left unwritten")
    func candidateMismatch() throws {
        for fault in [DialMachine.Fault.level, .mode, .trap] {
            let machine = AnyMachine(DialMachine(fault: fault))
            let described = try #require(try machine.replay(TraceStep("config"), [Self.turn], .search).get().outcome.failure)
            let candidate = try #require(try machine.replay(TraceStep("config"), [Self.turn], .candidate).get().outcome.failure)
            #expect(candidate.signature == described.signature && candidate.step == described.step, "\(fault)")
            #expect(described.message.hasPrefix("turn(by: 2): "), "\(fault): \(described.message)")
            #expect(candidate.message == "(not described: a shrink candidate)", "\(fault)")
        }
        #expect(try AnyMachine(DialMachine(fault: .none)).replay(TraceStep("config"), [Self.turn], .candidate).get().outcome == .pass)
    }

    @Test("a part only the observation has is compared where the observation lists it")
    func observedOnlyPart() {
        let predicted: [(label: String, value: String)] = [("outcome", "failed"), ("validation", ""), ("code", "1")]
        func first(_ observed: [(label: String, value: String)]) -> String? { Prediction<Int>.firstDifferingPart(predicted: predicted, observed: observed) }
        #expect(first([("outcome", "failed"), ("deny", "x"), ("validation", ""), ("code", "2")]) == "deny")
        #expect(first([("outcome", "failed"), ("validation", ""), ("code", "2"), ("row", "r")]) == "code")
        #expect(first([("outcome", "failed"), ("validation", ""), ("code", "1"), ("row", "r")]) == "row")
        #expect(first([("outcome", "failed"), ("validation", "")]) == "code")
        #expect(first(predicted) == nil)
    }

    @Test("a trap the system recorded is a failure of kind trap, its code the detail")
    func trapKind() throws {
        let trap = try #require(try Self.outcome(.trap).failure)
        #expect(trap.kind == .trap)
        #expect(trap.detail == "E7")
        #expect(trap.rule == "D1")
    }

    @Test("coverage credits the prediction's rule and its part rules")
    func coverage() {
        let run = AnyMachine(DialMachine(fault: .none)).run(Draw(seed: 3), 5, RunOptions(covers: true))
        #expect(run.steps > 0)
        #expect(run.coverage.predictions["D1"] == run.steps)
        #expect(run.coverage.predictions["D2"] == run.steps)
    }

    @Test("copies of a prediction declare parts apart: one's parts never reach another sharing its list")
    func copiesDeclarePartsApart() {
        let base = Prediction(1, rule: "D1").part("a", rule: "A")
        let left = base.part("b", rule: "B")
        let right = base.part("c", rule: "C")
        let long = (0..<9).reduce(left) { $0.part("p\($1)", rule: "P") }
        #expect(base.credits.map(\.label) == ["a"])
        #expect(left.credits.map(\.label) == ["a", "b"])
        #expect(right.credits.map(\.label) == ["a", "c"])
        #expect(long.credits.count == 11 && long.credits.last == PartRule(label: "p8", rule: "P"))
        #expect(left == base.part("b", rule: "B") && left != right)
    }

    @Test("a replayed step whose arguments no longer fit is reported by its number; a generated one is never drawn")
    func unavailable() throws {
        let steps = Array(repeating: TraceStep("turn", [.init("by", .int(3))]), count: 4)
        #expect(throws: TraceReplayError(step: 3, message: "step 4 'turn(by: 3)' cannot be applied in the state the earlier steps leave (a reference or precondition no longer holds)")) {
            try Self.outcome(.none, steps: steps)
        }
        // Generated cases stop turning at 9: with no other action, the case ends there.
        for seed in UInt64(1)...20 { #expect(AnyMachine(DialMachine(fault: .none)).run(Draw(seed: seed), 30).outcome == .pass) }
    }

    @Test("arguments that throw anything else are a fault of the harness, never a verdict")
    func argumentsFault() throws {
        let fault = try #require(try Self.outcome(.arguments).harnessFault)
        #expect(fault.step == 0)
        #expect(fault.message.hasPrefix("the arguments of action 'turn' threw "))
    }

    @Test("the configuration's trace is derived as it is drawn, an argument at its default left out and read back as it")
    func configTrace() throws {
        let machine = AnyMachine(DialMachine(fault: .none))
        var traces: Set<String> = []
        for seed in UInt64(1)...20 { traces.insert(machine.generate(Draw(seed: seed), 1)[0].description) }
        #expect(traces == ["config()", "config(disk: true)"])
        #expect(try machine.replay(TraceStep("config"), [Self.turn]).get().config.description == "config()")
        #expect(try machine.replay(TraceStep("config", [.init("disk", .bool(true))]), []).get().config.description == "config(disk: true)")
        #expect(throws: TraceReplayError(step: nil, message: "argument 'disk' of 'config' is not true or false")) {
            try machine.replay(TraceStep("config", [.init("disk", .int(1))]), []).get()
        }
    }
}
