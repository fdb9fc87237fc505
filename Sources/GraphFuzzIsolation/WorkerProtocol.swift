import GraphFuzzEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request of the line protocol between a search and its worker processes (`graph-fuzz worker`, or a test binary
/// started again for one `GraphFuzzTest.check`), one per line. Every request that generates a case carries the run's
/// seed: a worker holds none of its own.
///
/// - `b SEED START STRIDE COUNT`: run cases START, START+STRIDE, … (COUNT of them) of the run SEED. Before each case
///   the worker writes `s INDEX` with one unbuffered write, so when it dies the parent knows which case was running
///   (the cases of the batch before it run again: their coverage comes at the batch's end); a failing case (or one whose harness faulted,
///   `HarnessFault`) adds `f INDEX OUTCOME`; the batch ends with `c COVERAGE` (what its cases exercised) and
///   `d STEPS REJECTED`. A worker started with a shrink budget (`graph-fuzz worker --shrink`) shrinks the first failure
///   of each signature it meets before its `f` line, writing `v INDEX OUTCOME` (the failure) as it starts, `h` while it
///   shrinks, then `g INDEX STEPS SECONDS<TAB>CONSUMED<TAB>SHRINK`, the shrunk case's record (`RecordLines`) and
///   `G OUTCOME` (`WorkerServer.shrinkInBatch`).
/// - `w SEED INDEX`: run case INDEX of the run SEED; `r CHOICES…`: replay a choice sequence (a shrink candidate). Both
///   write `k STEP<TAB>CONSUMED` just before the system runs each step — what the case consumed since the last `k`
///   (`ConsumedLine`), so a case that takes the worker down has told what it consumed up to that step — and end with
///   `u STEPS<TAB>CONSUMED` (the rest), `c COVERAGE` (`w` only: what the case exercised) and `o OUTCOME`. The parent
///   learns what every case consumed without running it again.
/// - `p STOP CHOICES…`: replay a choice sequence recorded, to describe it (STOP `-`: the whole case; a step number: the
///   steps before it, and that step generated and predicted but not run on the system — a case that crashed or hung
///   there). Writes `k STEP` before each step, the record (`RecordLines`) and `o OUTCOME`.
/// - `z SEED INDEX BUDGET<TAB>KIND<TAB>RULE<TAB>DETAIL`: run case INDEX of the run SEED as `w`
///   does (its answer the same, to `o`) and, when it failed with that signature, shrink it in the worker: the
///   candidates run here one after another, with no round trip to the parent, as `r` runs them. While they run the
///   worker writes `h` at least every `ShrinkLine.heartbeat` seconds of progress (at a step's start), so the parent can
///   tell a candidate that hangs; a candidate whose harness faulted adds `F OUTCOME` (the shrink then stops trying
///   candidates, as in the parent); the answer ends with `z SHRINK` (`ShrinkLine`). BUDGET is `ShrinkBudget.line`.
/// - `x FILE`: replay a corpus file's trace against the worker's machine: `o OUTCOME`, or `e STEP<TAB>MESSAGE` when
///   the trace cannot be applied.
///
/// Answer fields are separated by tabs; text fields escape backslash, tab and newline (`OutcomeLine`).
package enum WorkerRequest: Equatable, Sendable {
    case batch(seed: UInt64, CaseChunk)
    case runCase(seed: UInt64, index: Int)
    case replay(ChoiceSequence)
    /// Describe a sequence: recorded, up to step `stop` when given (not run on the system).
    case describe(ChoiceSequence, stoppingAt: Int?)
    case corpusFile(String)
    /// Run a case and shrink it in the worker when it fails with `signature`.
    case shrink(seed: UInt64, index: Int, signature: FailureSignature, budget: ShrinkBudget)

    /// The request as the line the parent sends (without its newline).
    package var line: String {
        switch self {
        case .batch(let seed, let chunk): return "b \(seed) \(chunk.start) \(chunk.stride) \(chunk.count)"
        case .runCase(let seed, let index): return "w \(seed) \(index)"
        case .replay(let sequence): return "r \(sequence)"
        case .describe(let sequence, let stop): return "p \(stop.map(String.init) ?? "-") \(sequence)"
        case .corpusFile(let file): return "x \(file)"
        case .shrink(let seed, let index, let signature, let budget):
            let escape = OutcomeLine.escape
            return "z \(seed) \(index) \(budget.line)\t\(signature.kind.rawValue)\t\(escape(signature.rule))\t\(escape(signature.detail))"
        }
    }

    /// Reads a request line; nil when it is none.
    package init?(line: String) {
        let fields = line.split(separator: " ")
        switch fields.first {
        case "b":
            guard fields.count == 5, let seed = UInt64(fields[1]), let start = Int(fields[2]), let stride = Int(fields[3]),
                  let count = Int(fields[4]) else { return nil }
            self = .batch(seed: seed, CaseChunk(start: start, stride: stride, count: count))
        case "w":
            guard fields.count == 3, let seed = UInt64(fields[1]), let index = Int(fields[2]) else { return nil }
            self = .runCase(seed: seed, index: index)
        case "r":
            guard let sequence = ChoiceSequence(parsing: line.dropFirst()) else { return nil }
            self = .replay(sequence)
        case "p":
            guard fields.count >= 2, fields[1] == "-" || Int(fields[1]) != nil,
                  let sequence = ChoiceSequence(parsing: line.dropFirst(2).drop { $0 != " " }) else { return nil }
            self = .describe(sequence, stoppingAt: Int(fields[1]))
        case "x":
            guard line.count > 2 else { return nil }
            self = .corpusFile(String(line.dropFirst(2)))
        case "z":
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            let numbers = parts[0].split(separator: " ")
            guard parts.count == 4, numbers.count == 4, let seed = UInt64(numbers[1]), let index = Int(numbers[2]),
                  let budget = ShrinkBudget(line: numbers[3]), let kind = FailureKind(rawValue: String(parts[1])) else { return nil }
            let signature = FailureSignature(rule: OutcomeLine.unescape(parts[2]), kind: kind, detail: OutcomeLine.unescape(parts[3]))
            self = .shrink(seed: seed, index: index, signature: signature, budget: budget)
        default:
            return nil
        }
    }
}

/// An outcome as one line of text (the `OUTCOME` of the worker protocol's answers).
package enum OutcomeLine {
    /// Escapes backslash, tab, newline and carriage return, byte by byte: the four are ASCII, never part of another
    /// character's UTF-8 bytes, and as characters a carriage return and a newline together (or a backslash and a
    /// combining mark) would be one that no case here matches.
    package static func escape(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            let letter: UInt8
            switch byte {
            case UInt8(ascii: "\\"): letter = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): letter = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): letter = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): letter = UInt8(ascii: "r")
            default:
                out.append(byte)
                continue
            }
            out.append(UInt8(ascii: "\\"))
            out.append(letter)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reverses `escape`, byte by byte; a backslash before any other byte stands for that byte.
    package static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var escaping = false
        for byte in text.utf8 {
            if escaping {
                switch byte {
                case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                default: out.append(byte)
                }
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `pass`, `rejected`, `fail<TAB>KIND<TAB>RULE<TAB>DETAIL<TAB>STEP<TAB>MESSAGE`, or
    /// `harness<TAB>STEP<TAB>STEPTRACE<TAB>PLACE<TAB>MESSAGE` (a `HarnessFault`; `-` for no step).
    package static func encode(_ outcome: Outcome) -> String {
        switch outcome {
        case .pass: return "pass"
        case .rejected: return "rejected"
        case .fail(let failure):
            return ["fail", failure.kind.rawValue, escape(failure.rule), escape(failure.detail),
                    failure.step.map(String.init) ?? "-", escape(failure.message)].joined(separator: "\t")
        case .harnessFault(let fault):
            return ["harness", fault.step.map(String.init) ?? "-", escape(fault.stepTrace ?? ""), escape(fault.place),
                    escape(fault.message)].joined(separator: "\t")
        }
    }

    package static func decodeOutcome(_ text: Substring) -> Outcome? {
        if text == "pass" { return .pass }
        if text == "rejected" { return .rejected }
        let fields = text.fields(UInt8(ascii: "\t"))
        if fields.count == 5, fields[0] == "harness" {
            let step = Int(fields[1])
            return .harnessFault(HarnessFault(message: unescape(fields[4]), place: unescape(fields[3]), step: step,
                                              stepTrace: step == nil ? nil : unescape(fields[2])))
        }
        guard fields.count == 6, fields[0] == "fail", let kind = FailureKind(rawValue: String(fields[1])) else { return nil }
        return .fail(Failure(rule: unescape(fields[2]), kind: kind, message: unescape(fields[5]), detail: unescape(fields[3]),
                             step: Int(fields[4])))
    }
}

extension Coverage {
    /// The coverage as one line of text (the `COVERAGE` of a batch's answer): `CASES<TAB>ACTIONS<TAB>PREDICTIONS<TAB>INVARIANTS`,
    /// actions as `name,ran,held,failed` and rule counts as `rule=count`, each list `;`-separated
    /// (names and rule ids hold none of `\t,;=`), rules sorted.
    package var line: String {
        let actions = self.actions.map { "\($0.name),\($0.ran),\($0.held),\($0.failed)" }.joined(separator: ";")
        let predictions = sortedPredictions.map { "\($0.rule)=\($0.count)" }.joined(separator: ";")
        let invariants = sortedInvariants.map { "\($0.rule)=\($0.count)" }.joined(separator: ";")
        return "\(cases)\t\(actions)\t\(predictions)\t\(invariants)"
    }

    /// Reads `line`; nil when it is not one.
    package init?(line: Substring) {
        let fields = line.fields(UInt8(ascii: "\t"))
        guard fields.count == 4, let cases = Int(fields[0]) else { return nil }
        var actions: [ActionCount] = []
        for entry in fields[1].parts(UInt8(ascii: ";")) {
            let parts = entry.fields(UInt8(ascii: ","))
            guard parts.count == 4, let ran = Int(parts[1]), let held = Int(parts[2]), let failed = Int(parts[3]) else { return nil }
            actions.append(ActionCount(name: String(parts[0]), ran: ran, held: held, failed: failed))
        }
        func counts(_ field: Substring) -> [String: Int]? {
            var out: [String: Int] = [:]
            for entry in field.parts(UInt8(ascii: ";")) {
                let parts = entry.fields(UInt8(ascii: "="))
                guard parts.count == 2, let count = Int(parts[1]) else { return nil }
                out[String(parts[0]), default: 0] += count
            }
            return out
        }
        guard let predictions = counts(fields[2]), let invariants = counts(fields[3]) else { return nil }
        self.init(actions: actions, predictions: predictions, invariants: invariants, cases: cases)
    }
}

/// What a case consumed since the last delta (`ConsumedDelta`) as the fields of a `k` or `u` answer:
/// `CHOICES<TAB>BOUNDS<TAB>SPANSFROM<TAB>SPANS<TAB>OPEN`, numbers space-separated, each span `LABEL,START,END,DEPTH,DISCARDED`
/// and spans `;`-separated.
package enum ConsumedLine {
    package static func encode(_ delta: ConsumedDelta) -> String {
        let spans = delta.spans.map { "\($0.label.rawValue),\($0.start),\($0.end),\($0.depth),\($0.isDiscarded ? 1 : 0)" }
        return [numbers(delta.choices), numbers(delta.bounds), String(delta.spansFrom), spans.joined(separator: ";"),
                numbers(delta.openSpans.map(UInt64.init))].joined(separator: "\t")
    }

    /// Reads the fields `encode` wrote; nil when they are not.
    package static func decode<Fields: RandomAccessCollection>(_ fields: Fields) -> ConsumedDelta? where Fields.Element == Substring {
        guard fields.count == 5 else { return nil }
        let field = Array(fields)
        guard let choices = numbers(field[0]), let bounds = numbers(field[1]), choices.count == bounds.count, let spansFrom = Int(field[2]),
              let open = numbers(field[4]) else { return nil }
        guard let spans = spans(field[3]) else { return nil }
        return ConsumedDelta(choices: choices, bounds: bounds, spansFrom: spansFrom, spans: spans, openSpans: open.map { Int($0) })
    }

    /// The spans `encode` wrote, `LABEL,START,END,DEPTH,DISCARDED` each, `;`-separated, read from the field's bytes (a
    /// case's answer holds thousands); nil when an entry is not five numbers.
    private static func spans(_ text: Substring) -> [Span]? {
        var spans: [Span] = []
        var numbers: [Int] = []
        numbers.reserveCapacity(5)
        var value = 0, digits = 0
        func endEntry() -> Bool {
            if digits == 0 && numbers.isEmpty { return true }  // an empty entry, as `split(separator:)` skips it
            guard digits > 0, numbers.count == 4 else { return false }
            numbers.append(value)
            guard numbers[0] <= Int(UInt32.max) else { return false }
            spans.append(Span(label: Span.Label(rawValue: UInt32(numbers[0])), start: numbers[1], end: numbers[2], depth: numbers[3],
                              isDiscarded: numbers[4] == 1))
            numbers.removeAll(keepingCapacity: true)
            value = 0
            digits = 0
            return true
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 18 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: ","):
                guard digits > 0, numbers.count < 4 else { return nil }
                numbers.append(value)
                value = 0
                digits = 0
            case UInt8(ascii: ";"):
                guard endEntry() else { return nil }
            default:
                return nil
            }
        }
        return endEntry() ? spans : nil
    }

    private static func numbers(_ values: [UInt64]) -> String { values.map(String.init).joined(separator: " ") }

    private static func numbers(_ text: Substring) -> [UInt64]? { ChoiceSequence.values(parsing: text) }
}

extension ShrinkBudget {
    /// The budget as one field, `ATTEMPTS,STALL,SECONDS` (`-` for no time limit): a `z` request's and
    /// `graph-fuzz worker --shrink`'s.
    package var line: String { "\(maxAttempts),\(maxStall),\(maxSeconds.map { "\($0)" } ?? "-")" }

    /// Reads `line`'s form; nil unless every number is positive.
    package init?(line: Substring) {
        let parts = line.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3, let attempts = Int(parts[0]), attempts > 0, let stall = Int(parts[1]), stall > 0 else { return nil }
        let seconds = parts[2] == "-" ? nil : Double(parts[2])
        guard parts[2] == "-" || (seconds.map { $0 > 0 && $0.isFinite } ?? false) else { return nil }
        self.init(maxAttempts: attempts, maxSeconds: seconds, maxStall: stall)
    }
}

/// A shrink's result (`ShrinkResult`) as the `z` answer of a `z` request:
/// `ATTEMPTS IMPROVEMENTS SKIPPED FLAGS<TAB>CHOICES<TAB>PASSES`, FLAGS the letters of what ended the shrink (`b` the
/// budget, `s` a stall, `i` an interruption; `-` for a fixed point), PASSES `NAME,RUNS,ATTEMPTS,IMPROVEMENTS,REMOVED`
/// `;`-separated (pass names hold none of `\t,;`).
package enum ShrinkLine {
    /// Seconds of progress between a worker's heartbeats (`h`) while it shrinks.
    package static let heartbeat = 0.01

    package static func encode(_ result: ShrinkResult) -> String {
        let flags = (result.budgetExhausted ? "b" : "") + (result.stalled ? "s" : "") + (result.interrupted ? "i" : "")
        let passes = result.passes.map { "\($0.pass),\($0.runs),\($0.attempts),\($0.improvements),\($0.choicesRemoved)" }
        return "\(result.attempts) \(result.improvements) \(result.skipped) \(flags.isEmpty ? "-" : flags)\t\(result.sequence)\t"
            + passes.joined(separator: ";")
    }

    /// Reads the fields `encode` wrote; nil when they are not.
    package static func decode(_ text: Substring) -> ShrinkResult? {
        let fields = text.fields(UInt8(ascii: "\t"))
        guard fields.count == 3 else { return nil }
        let numbers = fields[0].parts(UInt8(ascii: " "))
        guard numbers.count == 4, let attempts = Int(numbers[0]), let improvements = Int(numbers[1]), let skipped = Int(numbers[2]),
              numbers[3].allSatisfy({ "bsi-".contains($0) }), let sequence = ChoiceSequence(parsing: fields[1]) else { return nil }
        var passes: [ShrinkPassStats] = []
        for entry in fields[2].parts(UInt8(ascii: ";")) {
            let parts = entry.fields(UInt8(ascii: ","))
            guard parts.count == 5, let runs = Int(parts[1]), let tried = Int(parts[2]), let improved = Int(parts[3]),
                  let removed = Int(parts[4]) else { return nil }
            var stats = ShrinkPassStats(pass: String(parts[0]))
            stats.runs = runs
            stats.attempts = tried
            stats.improvements = improved
            stats.choicesRemoved = removed
            passes.append(stats)
        }
        return ShrinkResult(sequence: sequence, attempts: attempts, improvements: improvements, budgetExhausted: numbers[3].contains("b"),
                            stalled: numbers[3].contains("s"), interrupted: numbers[3].contains("i"), passes: passes, skipped: skipped)
    }
}

/// A case's record (`CaseRecord`) as the `y` lines of a `p` answer, its outcome on the `o` line that follows:
/// `y c CONFIG`, `y l CONFIGLINE`, `y s STEP<TAB>EXPECTATION`, `y w SWIFTLINE`, each text escaped (`OutcomeLine`).
package enum RecordLines {
    package static func encode(_ record: CaseRecord) -> [String] {
        let escape = OutcomeLine.escape
        return ["y c \(escape(record.config.description))"] + record.configLines.map { "y l \(escape($0))" }
            + zip(record.steps, record.expectations).map { "y s \(escape($0.description))\t\(escape($1))" }
            + record.swiftLines.map { "y w \(escape($0))" }
    }

    /// Adds the `y` line `line` (its letter and space dropped) to `record`; false when it is not one.
    package static func read(_ line: Substring, into record: inout CaseRecord) -> Bool {
        guard line.count >= 2 else { return false }
        let text = line.dropFirst(2)
        switch line.first {
        case "c":
            guard let config = try? TraceStep(parsing: Substring(OutcomeLine.unescape(text))) else { return false }
            record.config = config
        case "l": record.configLines.append(OutcomeLine.unescape(text))
        case "s":
            let fields = text.fields(UInt8(ascii: "\t"))
            guard fields.count == 2, let step = try? TraceStep(parsing: Substring(OutcomeLine.unescape(fields[0]))) else { return false }
            record.steps.append(step)
            record.expectations.append(OutcomeLine.unescape(fields[1]))
        case "w": record.swiftLines.append(OutcomeLine.unescape(text))
        default: return false
        }
        return true
    }
}

/// Reads space-separated non-negative integers from a protocol line's bytes.
struct LineScanner {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    /// Scans `bytes` after its first `skip` bytes (the request or answer letter and its space).
    init(_ bytes: ArraySlice<UInt8>, skip: Int = 2) {
        self.bytes = bytes
        self.index = Swift.min(bytes.startIndex + skip, bytes.endIndex)
    }

    /// The next integer, or nil when there is none or it is not a number.
    mutating func int() -> Int? {
        while index < bytes.endIndex && bytes[index] == UInt8(ascii: " ") { index += 1 }
        var value = 0, digits = 0
        while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0, digits < 19, index == bytes.endIndex || bytes[index] == UInt8(ascii: " ") else { return nil }
        return value
    }

    /// True when every byte has been read.
    var atEnd: Bool { index == bytes.endIndex }

    /// The rest of the line from the current position, after one separating space.
    var rest: Substring {
        var start = index
        if start < bytes.endIndex && bytes[start] == UInt8(ascii: " ") { start += 1 }
        return Substring(String(decoding: bytes[start...], as: UTF8.self))
    }
}

/// Writes a worker's answer lines to its answer descriptor, each in one unbuffered write (a line written just
/// before a trap is never lost); announcements (`s INDEX`) from one reused buffer, since a worker
/// writes one per case and formatting them must cost next to nothing.
struct AnswerWriter {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(64)
    }

    func line(_ text: String) { writeUnbuffered(to: descriptor, text + "\n") }

    mutating func announce(_ letter: Character, _ numbers: Int...) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(letter.asciiValue ?? UInt8(ascii: "?"))
        for number in numbers {
            buffer.append(UInt8(ascii: " "))
            appendDigits(number)
        }
        buffer.append(UInt8(ascii: "\n"))
        let descriptor = self.descriptor
        buffer.withUnsafeBytes { writeUnbuffered(to: descriptor, $0) }
    }

    private mutating func appendDigits(_ number: Int) {
        var value = number
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
            value = -value
        }
        let start = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        } while value > 0
        buffer[start...].reverse()
    }
}

/// Writes `text` with `write(2)`, unbuffered, all of it: a line written just before a trap is never lost.
package func writeUnbuffered(to descriptor: Int32 = STDOUT_FILENO, _ text: String) {
    var text = text
    text.withUTF8 { writeUnbuffered(to: descriptor, UnsafeRawBufferPointer($0)) }
}

/// Writes `bytes` with `write(2)`, unbuffered, all of them.
package func writeUnbuffered(to descriptor: Int32 = STDOUT_FILENO, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
