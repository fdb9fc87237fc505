import GraphFuzzEngine

/// The line protocol between `graph-fuzz` and its worker processes (`graph-fuzz worker …`).
///
/// Parent to worker, one request per line:
/// - `b START STRIDE COUNT`: run cases START, START+STRIDE, … (COUNT of them) of the run's seed.
///   Before each case the worker writes `s INDEX STEPS REJECTED` (steps and rejected cases so far
///   in the batch) with one unbuffered write, so when it dies the parent knows which case was
///   running; a failing case (or one whose harness faulted, `HarnessFault`) adds `f INDEX OUTCOME`; the batch ends with `c COVERAGE` (what its
///   cases exercised, `Coverage.line`) and `d STEPS REJECTED`.
/// - `r CHOICES…`: replay a choice sequence (a shrink candidate); `w INDEX`: run case INDEX. Both
///   write `k STEP` just before the system runs each step and end with `o OUTCOME`.
/// - `x FILE`: replay a corpus file's trace against the worker's mutant (or production code):
///   `o OUTCOME`, or `e MESSAGE` when the trace cannot be applied.
/// Worker to parent fields are separated by tabs; text fields escape backslash, tab and newline.
enum WorkerProtocol {
    static func escape(_ text: String) -> String { OutcomeLine.escape(text) }
    static func unescape(_ text: Substring) -> String { OutcomeLine.unescape(text) }
    /// `pass`, `rejected`, `fail<TAB>KIND<TAB>RULE<TAB>DETAIL<TAB>STEP<TAB>MESSAGE` or `harness<TAB>…` (see `OutcomeLine`).
    static func encode(_ outcome: Outcome) -> String { OutcomeLine.encode(outcome) }
    static func decodeOutcome(_ text: Substring) -> Outcome? { OutcomeLine.decodeOutcome(text) }
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

/// Writes announcement lines (`s INDEX STEPS REJECTED`) from one reused buffer: a worker writes
/// one per case, and formatting them must cost next to nothing.
struct Announcer {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(64) }

    mutating func announce(_ letter: Character, _ numbers: Int...) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(letter.asciiValue ?? UInt8(ascii: "?"))
        for number in numbers {
            buffer.append(UInt8(ascii: " "))
            appendDigits(number)
        }
        buffer.append(UInt8(ascii: "\n"))
        buffer.withUnsafeBytes { writeUnbuffered($0) }
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
