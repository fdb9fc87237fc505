/// Bad usage: the message names the flag or value that was wrong. Exit code 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// A command's arguments, read flag by flag. Each accessor takes its flag (and its value: the argument after it, or
/// the text after `=` in `--flag=value`, as swift-argument-parser reads it) wherever it stands, checks it, and throws
/// an error naming the flag, the value and what is allowed; a flag given twice is an error naming it. What no
/// accessor took (an unknown flag, a stray word) is left for `leftover`, which the command line reports once the
/// command has read its flags.
package struct Flags {
    /// One argument: `--name=value` is the flag `--name` with its value attached.
    private struct Token {
        var text: String
        var name: String
        var attached: String?

        init(_ text: String) {
            self.text = text
            if text.hasPrefix("--"), let equals = text.firstIndex(of: "=") {
                name = String(text[..<equals])
                attached = String(text[text.index(after: equals)...])
            } else {
                name = text
            }
        }
    }

    private let tokens: [Token]
    private var taken: [Bool]
    /// Put before a flag in its messages: "coverage " gives "coverage --seed: '…' is out of range (…)".
    let prefix: String

    package init(_ arguments: some Sequence<String>, prefix: String = "") {
        tokens = arguments.map(Token.init)
        taken = Array(repeating: false, count: tokens.count)
        self.prefix = prefix
    }

    /// Whether the switch `name` was given. Given twice, or with a value (`--json=yes`), it is an error.
    package mutating func has(_ name: String) throws(UsageError) -> Bool {
        let found = try occurrence(of: name)
        guard let index = found else { return false }
        if let value = tokens[index].attached { throw UsageError("\(prefix)\(name) takes no value (got '\(name)=\(value)')") }
        taken[index] = true
        return true
    }

    /// The value of `name` (the argument after it, or attached with `=`), nil when the flag is not given.
    package mutating func string(_ name: String) throws(UsageError) -> String? {
        try value(name) { (_, text) throws(UsageError) in text }
    }

    /// The value of `name` read by `parse`, which is given the flag as its messages name it ("coverage --seed").
    package mutating func value<T>(_ name: String, _ parse: (_ label: String, _ text: String) throws(UsageError) -> T) throws(UsageError) -> T? {
        guard let index = try occurrence(of: name) else { return nil }
        taken[index] = true
        if let attached = tokens[index].attached { return try parse(prefix + name, attached) }
        guard index + 1 < tokens.count, !taken[index + 1] else { throw UsageError("\(prefix)\(name) needs a value") }
        taken[index + 1] = true
        return try parse(prefix + name, tokens[index + 1].text)
    }

    /// Where the flag `name` stands among the arguments not taken yet, nil when it is not given; an error when it is
    /// given twice.
    private func occurrence(of name: String) throws(UsageError) -> Int? {
        let indices = tokens.indices.filter { !taken[$0] && tokens[$0].name == name }
        guard indices.count < 2 else {
            throw UsageError("\(prefix)\(name) is given \(indices.count == 2 ? "twice" : "\(indices.count) times"); give it once")
        }
        return indices.first
    }

    /// A positive integer within `range`.
    package mutating func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        try value(name) { (label, text) throws(UsageError) in try Flags.positiveInt(label, text, within: range) }
    }

    /// A seed: any integer from 0 to 2^64 − 1.
    package mutating func seed(_ name: String) throws(UsageError) -> UInt64? {
        try value(name) { (label, text) throws(UsageError) in try Flags.seed(label, text) }
    }

    /// A positive number of seconds within `range`.
    package mutating func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        try value(name) { (label, text) throws(UsageError) in try Flags.seconds(label, text, within: range) }
    }

    /// The arguments no accessor took that are not flags (files, folders), in order; they are taken.
    package mutating func operands() -> [String] {
        var found: [String] = []
        for index in tokens.indices where !taken[index] && !tokens[index].text.hasPrefix("-") {
            taken[index] = true
            found.append(tokens[index].text)
        }
        return found
    }

    /// The first argument no accessor took, nil when every one was.
    package var leftover: String? { tokens.indices.first { !taken[$0] }.map { tokens[$0].text } }

    // MARK: Values

    /// A positive integer within `limits`. Digits beyond the largest integer are out of range, not "not a number".
    package static func positiveInt(_ label: String, _ text: String, within limits: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text) else {
            if isInteger(text) && !text.hasPrefix("-") {
                throw UsageError("\(label): '\(text)' is out of range (\(limits.lowerBound)–\(limits.upperBound))")
            }
            throw UsageError("\(label): '\(text)' is not a positive integer")
        }
        guard value > 0 else { throw UsageError("\(label): '\(text)' is not a positive integer") }
        guard limits.contains(value) else { throw UsageError("\(label): '\(text)' is out of range (\(limits.lowerBound)–\(limits.upperBound))") }
        return value
    }

    /// A seed: any integer from 0 to 2^64 − 1. Digits beyond it are out of range, not "not a number".
    package static func seed(_ label: String, _ text: String) throws(UsageError) -> UInt64 {
        guard let value = UInt64(text) else {
            if isInteger(text) && !text.hasPrefix("-") {
                throw UsageError("\(label): '\(text)' is out of range (0–\(UInt64.max))")
            }
            throw UsageError("\(label): '\(text)' is not a non-negative integer")
        }
        return value
    }

    /// A positive, finite number of seconds within `limits`.
    package static func seconds(_ label: String, _ text: String, within limits: ClosedRange<Double>) throws(UsageError) -> Double {
        let seconds = try positiveSeconds(label, text, within: limits)
        guard limits.contains(seconds) else { throw secondsOutOfRange(label, text, limits) }
        return seconds
    }

    /// `--case-timeout`: below `FlagLimits.caseTimeout` a worker cannot even start a case, and every case would be a hang.
    package static func caseTimeout(_ label: String, _ text: String) throws(UsageError) -> Double {
        let limits = FlagLimits.caseTimeout
        let seconds = try positiveSeconds(label, text, within: limits)
        guard seconds >= limits.lowerBound else {
            throw UsageError("\(label): '\(text)' is too short: a case needs at least \(FlagLimits.text(limits.lowerBound)) s to start and run a step (every case would be reported as a hang)")
        }
        return try Flags.seconds(label, text, within: limits)
    }

    /// `text` as a positive, finite number of seconds. A positive number beyond what a `Double` holds (`1e400`, read
    /// as infinity; `1e-400`, read as 0) is out of `limits`, not "not a number".
    private static func positiveSeconds(_ label: String, _ text: String, within limits: ClosedRange<Double>) throws(UsageError) -> Double {
        let notPositive = UsageError("\(label): '\(text)' is not a positive number of seconds")
        guard let seconds = Double(text), !seconds.isNaN else { throw notPositive }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        if (seconds == .infinity) || (seconds == 0 && !text.hasPrefix("-") && mantissa.contains(where: { ("1"..."9").contains($0) })) {
            throw secondsOutOfRange(label, text, limits)
        }
        guard seconds > 0, seconds.isFinite else { throw notPositive }
        return seconds
    }

    private static func secondsOutOfRange(_ label: String, _ text: String, _ limits: ClosedRange<Double>) -> UsageError {
        UsageError("\(label): '\(text)' is out of range (\(FlagLimits.text(limits.lowerBound))–\(FlagLimits.text(limits.upperBound)) seconds)")
    }

    /// An optional sign followed by at least one digit and nothing else: a number, however large.
    static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }
}

/// The ranges the numeric flags accept. Values outside them cannot work (a timeout no case can
/// meet, a budget that overflows a clock, more workers than memory holds) and are refused with
/// exit 2 before anything runs.
enum FlagLimits {
    /// `--runs`: cases per target.
    static let runs = 1...1_000_000_000_000
    /// `--steps`: most steps per case (the harness keeps every step of a case in memory).
    static let steps = 1...1_000_000
    /// `--jobs`: worker processes asked for; the run then caps them at the machine's cores and
    /// open-file limit (`WorkerBudget`).
    static let jobs = 1...4096
    /// `--time` and `bench --soak`, in seconds (at most a year: later deadlines overflow the clock).
    static let time = 0.001...31_536_000.0
    /// `--case-timeout`, in seconds: a worker needs about this long to start a case and run a
    /// step; at most a day.
    static let caseTimeout = 0.1...86_400.0

    /// A limit as the error message prints it: no trailing `.0`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
